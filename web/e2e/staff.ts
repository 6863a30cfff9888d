import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations } from './fixtures';

// What the back office's tests share (decision 017): the first owner made
// by the command line, as on a real server, and the codes an authenticator
// app would show for a staff member's TOTP secret.

/**
 * Runs `enrol staff add --owner EMAIL` against a test server's database
 * (`DATABASE_URL`; by default the SQLite instance's): the set-up link's
 * path and query.
 */
export function addOwner(email: string, name: string, databaseUrl = `sqlite://${process.env.E2E_DATABASE}`): string {
  const output = execFileSync(process.env.ENROL_BIN!, ['staff', 'add', '--owner', email, '--name', name], {
    env: { ...process.env, DATABASE_URL: databaseUrl, RUST_LOG: 'error' },
  }).toString();
  const link = new URL(output.trim().split('\n').pop()!);
  return link.pathname + link.search;
}

function base32(secret: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of secret.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((byte) => Number.parseInt(byte, 2)));
}

/** RFC 6238: the six digits for `secret` in 30-second step `step`. */
export function codeAt(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const hash = createHmac('sha1', base32(secret)).update(counter).digest();
  const offset = hash[hash.length - 1]! & 0xf;
  const value = (hash.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return value.toString().padStart(6, '0');
}

const usedSteps = new Map<string, number>();

/**
 * A code the server has not accepted yet for `secret`: this step's, or,
 * once this step's was used, the next step's (accepted one step early, as
 * for a phone's clock a little ahead).
 */
export function freshCode(secret: string): string {
  const now = Math.floor(Date.now() / 30_000);
  const step = Math.max(now, (usedSteps.get(secret) ?? -1) + 1);
  if (step > now + 1) throw new Error('Two codes were used in this 30-second step already; wait for the next.');
  usedSteps.set(secret, step);
  return codeAt(secret, step);
}

/** The password every staff member of the browser tests chooses. */
export const STAFF_PASSWORD = 'a long staff password';

/** Finishes set-up from a set-up link (the page passing axe): the TOTP secret the page showed. */
export async function setUp(page: Page, link: string): Promise<string> {
  return (await setUpKeepingCodes(page, link)).secret;
}

/**
 * [`setUp`], with the recovery codes the page showed once set-up was done
 * (read before going on to the back office).
 */
export async function setUpKeepingCodes(page: Page, link: string, beforeGoingOn?: () => Promise<void>): Promise<{ secret: string; codes: string[] }> {
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Set up your account' })).toBeVisible();
  const secret = (await page.locator('code.secret').textContent())!.trim();
  await expectNoAxeViolations(page);
  await page.getByLabel('Choose a password').fill(STAFF_PASSWORD);
  await page.getByLabel('Code from your authenticator app').fill(freshCode(secret));
  await page.getByRole('button', { name: 'Finish setting up' }).click();
  const codes = page.getByRole('region', { name: 'Your recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const kept = (await codes.allTextContents()).map((code) => code.trim());
  await beforeGoingOn?.();
  await page.getByRole('button', { name: 'I have kept my codes: open the back office' }).click();
  return { secret, codes: kept };
}
