import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';

// The PostgreSQL database the content spec's two instances share (issue
// 15): made for one run, named after the runner's pid, and dropped by this
// file's default export, the run's globalTeardown. A run that died before
// its teardown leaves its database behind; the next run drops it, as its
// runner's pid is gone. The server is the Rust tests' (the README):
// `ENROL_TEST_POSTGRES_URL`, user postgres with trust authentication.

export const POSTGRES_ADMIN_URL = process.env.ENROL_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const PREFIX = 'enrol_e2e_';

/** Whether a PostgreSQL server answers at the admin address within three seconds. */
export function postgresReachable(): boolean {
  return spawnSync('pg_isready', ['-q', '-d', POSTGRES_ADMIN_URL, '-t', '3']).status === 0;
}

/** The database a run with this runner pid uses. */
export function runDatabase(pid: number): string {
  return `${PREFIX}${pid}`;
}

/** The address of database `name` on the admin address's server. */
export function databaseUrl(name: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Where instance `instance` keeps its resized images, and where both keep uploads (as a shared volume would). */
export function runFolders(name: string) {
  return { uploads: `/tmp/${name}-uploads`, imageCache: (instance: string) => `/tmp/${name}-images-${instance}` };
}

function psql(...statements: string[]): string {
  const args = ['-q', '-X', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-d', POSTGRES_ADMIN_URL, ...statements.flatMap((sql) => ['-c', sql])];
  return execFileSync('psql', args, { stdio: ['ignore', 'pipe', 'inherit'] }).toString();
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: running, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function dropDatabase(name: string): void {
  psql(`drop database if exists ${name} with (force)`);
  rmSync(runFolders(name).uploads, { recursive: true, force: true });
  for (const instance of ['a', 'b']) rmSync(runFolders(name).imageCache(instance), { recursive: true, force: true });
}

/** Drops what runs that died left, then makes this run's empty database. */
export function createRunDatabase(name: string): void {
  for (const old of psql('select datname from pg_database').split('\n')) {
    const pid = old.startsWith(PREFIX) ? Number(old.slice(PREFIX.length)) : Number.NaN;
    if (old === name || (Number.isSafeInteger(pid) && pid > 0 && !isRunning(pid))) dropDatabase(old);
  }
  psql(`create database ${name}`);
}

/** globalTeardown: drops the run's database. The instances are still up (Playwright stops them after this), hence `with (force)`. */
export default function dropRunDatabase(): void {
  const name = process.env.E2E_CONTENT_DATABASE;
  if (name) dropDatabase(name);
}
