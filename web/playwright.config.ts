import { defineConfig } from '@playwright/test';

// Browser tests against the real binary: a fresh SQLite database with the
// demo content, the pages built by `npm run build`, and Debian's chromium.
const port = Number(process.env.E2E_PORT ?? 8181);
const bin = process.env.ENROL_BIN;
if (!bin) throw new Error('Set ENROL_BIN to the enrol binary (make test-e2e does).');
// Set once by the runner and inherited by its workers, which read the
// database directly to check what a purchase recorded.
process.env.E2E_DATABASE ??= `/tmp/enrol-e2e-${process.pid}.db`;
const database = process.env.E2E_DATABASE;

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? 'list' : [['list']],
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  webServer: {
    command: `rm -f ${database}* && ${bin}`,
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      ENROL_LISTEN: `127.0.0.1:${port}`,
      ENROL_PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: `sqlite://${database}`,
      ENROL_WEB_DIST: 'dist',
      ENROL_CONTENT_DIR: '../content',
      ENROL_IMAGE_CACHE: `/tmp/enrol-e2e-images-${process.pid}`,
      // The tests read the mailed links from the outbox.
      ENROL_DEV_MAILBOX: '1',
      // One marketing tool, so the cookie banner has something to ask
      // about (it is not shown without one); the tests' stored choice
      // refuses marketing, so it never loads.
      ENROL_META_PIXEL_ID: '1234567890',
      // The account area's tests sign in as the demo student.
      ENROL_DEMO_STUDENTS: '1',
      // The balance reminders' job looks every second, so a test meets the mail it sends.
      ENROL_REMINDERS_EVERY_SECONDS: '1',
      // Every test browser is the one client 127.0.0.1 to the per-client limits.
      ENROL_WRITES_PER_MINUTE: '100000',
      ENROL_WRITE_BURST: '100000',
      ENROL_LIVE_ORDERS_PER_CLIENT: '100000',
      RUST_LOG: 'warn',
    },
  },
});
