import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import readline from 'node:readline';
const home = mkdtempSync('/tmp/hark-t-');
const daemon = spawn(process.argv[2], ['serve', '--port', '0'], { env: { ...process.env, HARK_HOME: home, HARK_LOG: 'warn', BROWSER: 'true' }, stdio: ['ignore', 'pipe', 'inherit'] });
const first = await new Promise((r) => readline.createInterface({ input: daemon.stdout }).once('line', r));
const url = `http://127.0.0.1:${first.trim().split(':').pop()}/`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--headless', '--disable-gpu'] });
for (let i = 0; i < 3; i++) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.addInitScript(() => {
    new MutationObserver(() => { if (document.body?.dataset.hydrated && !window.__hyd) window.__hyd = performance.now(); })
      .observe(document, { attributes: true, subtree: true });
  });
  await page.goto(url, { waitUntil: 'commit' });
  await page.locator('[data-connection="live"]').waitFor({ timeout: 60_000 });
  const live = await page.evaluate(() => performance.now());
  const t = await page.evaluate(() => ({
    hydrated: window.__hyd,
    res: performance.getEntriesByType('resource').map(e => [e.name.split('/').pop(), Math.round(e.startTime), Math.round(e.responseEnd)]),
    nav: Math.round(performance.getEntriesByType('navigation')[0].responseEnd),
  }));
  console.log(JSON.stringify({ live: Math.round(live), ...t }));
  await context.close();
}
await browser.close(); daemon.kill();
