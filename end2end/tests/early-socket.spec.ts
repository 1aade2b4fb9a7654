// The page's first script opens the event stream before the WebAssembly arrives, and the page
// takes that connection over once it has hydrated (issue 30): one connection, not two, and
// nothing heard in between is lost.
import { test, expect, hydrated } from './daemon';

async function browserClients(url: string): Promise<number> {
  const health = await fetch(`${url}/api/health`).then((response) => response.json());
  return health.browserClients;
}

test('the first script opens the stream and the page goes on with that one connection', async ({ page, daemon }) => {
  // A slow CPU, so the stream is open well before the page has hydrated.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
  // Every connection the page makes, and when.
  await page.addInitScript(() => {
    const opened: number[] = ((window as any).__opened = []);
    const Original = window.WebSocket;
    (window as any).WebSocket = new Proxy(Original, {
      construct(target, args) {
        opened.push(performance.now());
        return new target(...(args as [string]));
      },
    });
  });
  await page.goto(daemon.url + '/', { waitUntil: 'commit' });
  // Asked while the page is still loading: the `question:created` after `init` waits in the
  // first script's keeping until the page reads it.
  await expect.poll(() => browserClients(daemon.url), { timeout: 10_000 }).toBe(1);
  const asked = await daemon.ask({ questions: [{ question: 'Heard early?', options: [{ label: 'Yes' }] }] });
  await hydrated(page);
  await expect(page.locator('[data-connection="live"]')).toBeVisible();
  await expect(page.getByTestId('pending-list')).toContainText('Heard early?');
  expect(await page.evaluate(() => '__harkEvents' in window)).toBe(false);
  expect(await browserClients(daemon.url)).toBe(1);
  // One connection, opened before the WebAssembly had arrived.
  const opened: number[] = await page.evaluate(() => (window as any).__opened);
  expect(opened).toHaveLength(1);
  const wasmArrived = await page.evaluate(
    () =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((entry) =>
        entry.name.endsWith('/hark.wasm'),
      )?.responseEnd,
  );
  expect(opened[0]).toBeLessThan(wasmArrived!);
  // A page opened next within the app: still the one connection.
  await page.goto(`${daemon.url}/q/${asked.id}`);
  await hydrated(page);
  await expect.poll(() => browserClients(daemon.url), { timeout: 10_000 }).toBe(1);
});
