import { defineConfig } from '@playwright/test';
import { createRunDatabase, databaseUrl, POSTGRES_ADMIN_URL, postgresReachable, runDatabase, runFolders } from './e2e/postgres';

// Browser tests against the real binary: a fresh SQLite database with the
// demo content, the pages built by `npm run build`, and Debian's chromium.
const port = Number(process.env.E2E_PORT ?? 8181);
const bin = process.env.ENROL_BIN;
if (!bin) throw new Error('Set ENROL_BIN to the enrol binary (make test-e2e does).');
// Set once by the runner and inherited by its workers, which read the
// database directly to check what a purchase recorded.
process.env.E2E_DATABASE ??= `/tmp/enrol-e2e-${process.pid}.db`;
const database = process.env.E2E_DATABASE;

// The content spec (decision 018) edits on one instance and reads the public
// pages from another, as behind a load balancer: two more instances, A
// (port + 1) and B (port + 2), on one PostgreSQL database made for the run
// and one uploads folder. Decided once, by the runner (its workers inherit
// the name, '' without PostgreSQL).
if (process.env.E2E_CONTENT_DATABASE === undefined) {
  if (postgresReachable()) {
    process.env.E2E_CONTENT_DATABASE = runDatabase(process.pid);
    createRunDatabase(process.env.E2E_CONTENT_DATABASE);
  } else if (process.env.CI === 'true') {
    throw new Error(`PostgreSQL at ${POSTGRES_ADMIN_URL} (ENROL_TEST_POSTGRES_URL) does not answer pg_isready: the content spec's two instances need it under CI=true.`);
  } else {
    process.env.E2E_CONTENT_DATABASE = '';
    console.warn(
      `SKIPPING the two-instance content test: PostgreSQL at ${POSTGRES_ADMIN_URL} (ENROL_TEST_POSTGRES_URL) does not answer pg_isready. ` +
        'content.spec.ts runs against the SQLite instance alone, editing and reading the same server; under CI=true this fails.',
    );
  }
}
const contentDatabase = process.env.E2E_CONTENT_DATABASE;
const editorPort = port + 1;
const livePort = port + 2;
// Where the content spec edits, reads and adds its first owner.
process.env.E2E_EDITOR_URL = `http://127.0.0.1:${contentDatabase ? editorPort : port}`;
process.env.E2E_LIVE_URL = `http://127.0.0.1:${contentDatabase ? livePort : port}`;
process.env.E2E_EDITOR_DATABASE_URL = contentDatabase ? databaseUrl(contentDatabase) : `sqlite://${database}`;

/** What every instance runs with. */
const shared = {
  ENROL_WEB_DIST: 'dist',
  ENROL_CONTENT_DIR: '../content',
  // The tests read the mailed links from the outbox.
  ENROL_DEV_MAILBOX: '1',
  // One marketing tool, so the cookie banner has something to ask
  // about (it is not shown without one); the tests' stored choice
  // refuses marketing, so it never loads.
  ENROL_META_PIXEL_ID: '1234567890',
  // Every test browser is the one client 127.0.0.1 to the per-client limits.
  ENROL_WRITES_PER_MINUTE: '100000',
  ENROL_WRITE_BURST: '100000',
  ENROL_LIVE_ORDERS_PER_CLIENT: '100000',
  RUST_LOG: 'warn',
};

/** Instance `instance` of the PostgreSQL pair, listening on `listen`. */
function contentInstance(instance: 'a' | 'b', listen: number, command: string) {
  const folders = runFolders(contentDatabase!);
  return {
    name: `PostgreSQL ${instance.toUpperCase()}`,
    command,
    url: `http://127.0.0.1:${listen}/healthz`,
    reuseExistingServer: false,
    timeout: 90_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      ...shared,
      ENROL_LISTEN: `127.0.0.1:${listen}`,
      ENROL_PUBLIC_URL: `http://127.0.0.1:${listen}`,
      DATABASE_URL: databaseUrl(contentDatabase!),
      // One folder for both, as a shared volume would be: an image uploaded through A is served by B.
      ENROL_UPLOADS_DIR: folders.uploads,
      ENROL_IMAGE_CACHE: folders.imageCache(instance),
    },
  };
}

const contentInstances = contentDatabase
  ? [
      // A migrates the empty database and loads the demo content into it.
      contentInstance('a', editorPort, bin),
      // B starts once A answers, so the two never load into the empty database at once.
      contentInstance(
        'b',
        livePort,
        `until curl -sf -o /dev/null --max-time 2 http://127.0.0.1:${editorPort}/healthz; do sleep 0.2; done && ${bin}`,
      ),
    ]
  : [];

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? 'list' : [['list']],
  // A test's budget unless it sets its own: CI machines have run the suite
  // two and a half times slower than a quiet one, where the slowest test
  // on this budget takes 15 s. Tests that take longer set theirs.
  timeout: 60_000,
  globalTeardown: './e2e/postgres.ts',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  webServer: [
    {
      name: 'SQLite',
      command: `rm -f ${database}* && ${bin}`,
      url: `http://127.0.0.1:${port}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        ...shared,
        ENROL_LISTEN: `127.0.0.1:${port}`,
        ENROL_PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATABASE_URL: `sqlite://${database}`,
        ENROL_IMAGE_CACHE: `/tmp/enrol-e2e-images-${process.pid}`,
        // The account area's tests sign in as the demo student.
        ENROL_DEMO_STUDENTS: '1',
        // The balance reminders' job looks every second, so a test meets the mail it sends.
        ENROL_REMINDERS_EVERY_SECONDS: '1',
      },
    },
    ...contentInstances,
  ],
});
