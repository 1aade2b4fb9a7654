// `cargo xtask bench`'s page figures (issues 16, 48): what the first view of `/` costs over the
// wire, and how soon it paints, hydrates and shows a question asked while it loads, on a slow
// phone (slow 4G: 150 ms round trips, 1.6 Mbit/s down, 750 kbit/s up; the CPU 4x slower), in
// Debian's Chromium. Figures, not verdicts.
// Usage: node end2end/bench/first-view.mjs target/release/hark
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

const binary = path.resolve(process.argv[2] ?? 'target/release/hark');
const home = mkdtempSync(path.join(tmpdir(), 'hark-first-view-'));
const daemon = spawn(binary, ['serve', '--port', '0'], {
  env: { ...process.env, HARK_HOME: home, HARK_LOG: 'warn', BROWSER: 'true' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const first = await new Promise((resolve) => readline.createInterface({ input: daemon.stdout }).once('line', resolve));
const url = `http://127.0.0.1:${first.trim().split(':').pop()}/`;

const browser = await chromium.launch({
  executablePath: process.env.HARK_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--no-first-run', '--disable-quic'],
});

let asked = 0;
/** Asks a question; returns its id. */
async function ask(question) {
  const response = await fetch(new URL('/api/questions', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ questions: [{ question, options: [{ label: 'Yes' }, { label: 'No' }] }] }),
  });
  return (await response.json()).id;
}

/**
 * One load of `path`: bytes over the wire by kind, first paint, hydrated, live, and when a
 * question asked as the page's HTML arrives is on screen: its words in the inbox, or on a
 * question's page the header's count of waiting questions going up. Cold, or `warm`: in a
 * browser that has opened such a page before, so it holds the site's files and asks only
 * whether they changed (the server sends them with `no-cache` and an ETag).
 */
async function load(slow, path = '/', warm = false) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  if (warm) {
    const before = await context.newPage();
    await before.goto(new URL(path, url).href, { waitUntil: 'load' });
    await before.waitForFunction(() => document.body?.dataset.hydrated, null, { timeout: 60_000 });
    await before.close();
  }
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: !warm });
  if (slow) {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  }
  const kinds = new Map();
  const bytes = new Map();
  const kindOf = (event) => {
    const pathname = new URL(event.response.url).pathname;
    if (event.type === 'Document') return 'html';
    const extension = pathname.split('.').pop();
    return ['wasm', 'js', 'css'].includes(extension) ? extension : 'other';
  };
  cdp.on('Network.responseReceived', (event) => kinds.set(event.requestId, kindOf(event)));
  // When hydration ends (the page marks <body>), to tell the module's cost from the stream's,
  // and when the connection dot says live.
  const words = `Asked during the load, number ${++asked}?`;
  await page.addInitScript((words) => {
    const seen = () => {
      const badge = document.querySelector('[data-testid="pending-count"]')?.textContent ?? '';
      return document.body?.textContent.includes(words) || /\b2\b/.test(badge);
    };
    new MutationObserver(() => {
      if (document.body?.dataset.hydrated && !window.__hydratedAt) window.__hydratedAt = performance.now();
      if (!window.__liveAt && document.querySelector('[data-connection="live"]')) window.__liveAt = performance.now();
      if (window.__asked && !window.__seenAt && seen()) window.__seenAt = performance.now();
    }).observe(document, { attributes: true, subtree: true, childList: true, characterData: true });
  }, words);
  cdp.on('Network.loadingFinished', (event) => {
    const kind = kinds.get(event.requestId) ?? 'other';
    bytes.set(kind, (bytes.get(kind) ?? 0) + event.encodedDataLength);
  });
  await page.goto(new URL(path, url).href, { waitUntil: 'commit' });
  await page.evaluate(() => (window.__asked = true));
  const id = await ask(words);
  // Read in the page, like the other times: Playwright's own wait adds its polling and a round
  // trip, which a 4x slower CPU made 0.1–0.4 s.
  await page.waitForFunction(() => window.__liveAt, null, { timeout: 60_000 });
  const live = await page.evaluate(() => window.__liveAt);
  await page.waitForFunction(() => window.__seenAt, null, { timeout: 60_000 });
  const seen = await page.evaluate(() => window.__seenAt);
  const paint = await page.evaluate(
    () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
  );
  const hydrated = await page.evaluate(() => window.__hydratedAt ?? NaN);
  await context.close();
  // Answered, so the next load starts with the same questions waiting.
  await fetch(new URL(`/api/questions/${id}/answer`, url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ answers: [{ selected: ['Yes'] }] }),
  });
  return { bytes, paint, hydrated, live, seen };
}

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = (runs, figure) => `${(median(runs.map((run) => run[figure])) / 1000).toFixed(2)} s`;
/**
 * Prints what the first view of `path` weighs, and its slow-profile times (median of 5); `warm`,
 * as opened again by a browser that has been there (see `load`).
 */
async function measure(label, path, warm = false) {
  const fast = await load(false, path, warm);
  const total = [...fast.bytes.values()].reduce((a, b) => a + b, 0);
  const parts = [...fast.bytes.entries()].map(([type, n]) => `${type} ${kib(n)}`).join(', ');
  const view = warm ? `${label} again, its files cached,` : `first view of ${label}`;
  console.log(`${view}   ${kib(total)} over the wire (${parts})`);
  const runs = [];
  for (let i = 0; i < 5; i++) runs.push(await load(true, path, warm));
  console.log(
    `slow 4G, CPU 4x  first paint ${seconds(runs, 'paint')}, hydrated ${seconds(runs, 'hydrated')}, live ${seconds(runs, 'live')}, a question asked during the load on screen ${seconds(runs, 'seen')} (median of 5)`,
  );
}

// The empty inbox first (the figure issue 16 set its target on), then a question opened from a
// link (a push), whose page code is a lazily loaded module: by a phone new to Hark, and by one
// that has opened a question before, as a phone that gets Hark's pushes mostly has.
await measure('/', '/');
const pushed = `/q/${await ask('Ship it?')}`;
await measure('/q/<id>', pushed);
await measure('/q/<id>', pushed, true);
await browser.close();
daemon.kill('SIGTERM');
rmSync(home, { recursive: true, force: true });
