// The JavaScript each page kind loads before it hydrates (decision 012): the
// client entry with its static imports, plus the kind's route chunk
// (`src/app/routes/<kind>.tsx`) with the imports the entry does not already
// bring, in gzip bytes. Read from Vite's manifest; no server needed.
//   node bench/first-load-js.mjs [web/dist/client]
// Prints a Markdown table; exits 1 when a content page (any kind but the
// checkout, account and order pages) loads more than the budget, or when a
// page other than the checkout loads the checkout's code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const ENTRY = 'src/entry-client.tsx';
const ROUTES = /^src\/app\/routes\/([a-z-]+)\.tsx$/;
/** What a content page may load first (decision 012). */
const BUDGET_KB = 95;
/** Pages that are not content: they carry a form or an order, and are measured but not held to the budget. */
const NOT_CONTENT = new Set([
  'checkout', 'account', 'enrollment', 'online-order', 'sign-in', 'sign-up', 'verify-email', 'forgot-password', 'reset-password', 'balance',
  'waiting-list-join', 'waiting-list-claim', 'waiting-list-leave',
]);

const dist = process.argv[2] ?? 'web/dist/client';
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));

/** The manifest keys of `key` and everything it imports statically. */
function closure(key, into = new Set()) {
  if (into.has(key)) return into;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`The manifest lacks ${key}`);
  into.add(key);
  for (const imported of chunk.imports ?? []) closure(imported, into);
  return into;
}

const gzipBytes = (keys) => [...keys].reduce((sum, key) => sum + gzipSync(readFileSync(join(dist, manifest[key].file))).length, 0);
const kb = (bytes) => (bytes / 1024).toFixed(1);

const entry = closure(ENTRY);
const entryBytes = gzipBytes(entry);
const checkoutChunk = manifest['src/app/routes/checkout.tsx']?.file;
const rows = [];
const problems = [];
for (const key of Object.keys(manifest).sort()) {
  const kind = ROUTES.exec(key)?.[1];
  if (!kind) continue;
  const own = [...closure(key)].filter((k) => !entry.has(k));
  const total = entryBytes + gzipBytes(own);
  rows.push(`| ${kind} | ${kb(gzipBytes(own))} | ${kb(total)} |`);
  if (!NOT_CONTENT.has(kind) && total / 1024 > BUDGET_KB) problems.push(`${kind} loads ${kb(total)} KB first (budget ${BUDGET_KB} KB)`);
  if (kind !== 'checkout' && own.some((k) => manifest[k].file === checkoutChunk)) problems.push(`${kind} loads the checkout's code`);
}
if (rows.length === 0) problems.push(`no route chunks (${ROUTES}) in ${dist}: is the client built with one chunk per page kind?`);
if (entry.has('src/app/routes/checkout.tsx')) problems.push('the client entry includes the checkout');

console.log(`JavaScript loaded before hydration, KB gzip: the entry and its imports are ${kb(entryBytes)} KB on every page.`);
console.log('');
console.log('| page kind | its own chunks | first load |');
console.log('|---|---|---|');
for (const row of rows) console.log(row);
for (const problem of problems) console.error(`first-load-js: ${problem}`);
process.exit(problems.length ? 1 : 0);
