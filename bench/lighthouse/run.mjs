// Runs Lighthouse (mobile, the default form factor) three times on each page
// and prints the median category scores as a Markdown table.
//   node run.mjs http://127.0.0.1:8192 /courses/aesthetics/bb-glow/
import { readFileSync } from 'node:fs';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';

const base = process.argv[2];
const coursePath = process.argv[3];
if (!base || !coursePath) {
  console.error('usage: node run.mjs <base url> <course path>');
  process.exit(2);
}
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const pages = [
  ['home', '/'],
  ['course', coursePath],
  ['calendar', '/training-course-calendar/'],
];
const categories = ['performance', 'accessibility', 'best-practices', 'seo'];

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const chrome = await launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const rows = [];
try {
  for (const [name, path] of pages) {
    const scores = Object.fromEntries(categories.map((c) => [c, []]));
    const lcp = [];
    for (let run = 0; run < RUNS; run += 1) {
      const result = await lighthouse(`${base}${path}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: categories });
      for (const category of categories) scores[category].push(Math.round(result.lhr.categories[category].score * 100));
      lcp.push(result.lhr.audits['largest-contentful-paint'].numericValue);
      const failing = Object.values(result.lhr.audits).filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary');
      if (run === 0 && failing.length) console.error(`${name}: failing audits: ${failing.map((a) => a.id).join(', ')}`);
    }
    rows.push([name, path, ...categories.map((c) => median(scores[c])), `${(median(lcp) / 1000).toFixed(1)} s`]);
  }
} finally {
  await chrome.kill();
}

const version = JSON.parse(readFileSync(new URL('./node_modules/lighthouse/package.json', import.meta.url), 'utf8')).version;
console.log(`Lighthouse ${version}, mobile, median of ${RUNS} runs`);
console.log('');
console.log('| page | path | performance | accessibility | best practices | SEO | LCP |');
console.log('|---|---|---|---|---|---|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
