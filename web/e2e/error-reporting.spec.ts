import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { allowConsoleErrors, expect, hydrated, test } from './fixtures';

// Error reporting in the browser (decision 013): with SENTRY_DSN set,
// a thrown error in a page reaches the ingest endpoint (here a local one
// this test starts and reads) and an error the ignore rules leave out does
// not. A server of its own, so no other test's pages report anywhere.

const PORT = Number(process.env.E2E_PORT ?? 8181) + 7;
let ingest: Server;
let server: ChildProcess;
const received: string[] = [];

test.beforeAll(async () => {
  ingest = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push(Buffer.concat(chunks).toString('latin1'));
      response.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => ingest.listen(0, '127.0.0.1', resolve));
  const { port } = ingest.address() as AddressInfo;
  const database = `/tmp/enrol-e2e-sentry-${process.pid}.db`;
  server = spawn(process.env.ENROL_BIN!, [], {
    stdio: 'ignore',
    env: {
      ...process.env,
      ENROL_LISTEN: `127.0.0.1:${PORT}`,
      ENROL_PUBLIC_URL: `http://127.0.0.1:${PORT}`,
      DATABASE_URL: `sqlite://${database}`,
      ENROL_WEB_DIST: 'dist',
      ENROL_CONTENT_DIR: '../content',
      ENROL_IMAGE_CACHE: `/tmp/enrol-e2e-sentry-images-${process.pid}`,
      SENTRY_DSN: `http://public@127.0.0.1:${port}/1`,
      RUST_LOG: 'warn',
    },
  });
  await expect.poll(async () => (await fetch(`http://127.0.0.1:${PORT}/healthz`).catch(() => null))?.status, { timeout: 30_000 }).toBe(200);
});

test.afterAll(() => {
  server.kill();
  ingest.close();
});

test('a thrown error in a page reaches error reporting; an ignored one does not', async ({ page, consoleErrors }) => {
  await page.goto(`http://127.0.0.1:${PORT}/courses/`);
  await hydrated(page);
  // Sentry loads after the page: wait for it to take reports.
  await page.waitForFunction(() => '__SENTRY__' in window);
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error('Cannot read properties of undefined (reading prototype)');
    });
    setTimeout(() => {
      throw new Error('ResizeObserver loop completed with undelivered notifications.');
    });
    setTimeout(() => {
      throw new Error('The booking summary broke');
    }, 50);
  });
  await expect.poll(() => received.some((body) => body.includes('The booking summary broke')), { timeout: 15_000 }).toBe(true);
  const event = received.find((body) => body.includes('The booking summary broke'))!;
  expect(event).toContain('"environment":"production"');
  expect(received.some((body) => body.includes('ResizeObserver loop') || body.includes('reading prototype'))).toBe(false);
  allowConsoleErrors(consoleErrors, /prototype|ResizeObserver loop|The booking summary broke/);
});
