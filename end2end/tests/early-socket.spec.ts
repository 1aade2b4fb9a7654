// The page's first script opens the event stream before the WebAssembly arrives, and the page
// takes that connection over once it has hydrated (issue 30): one connection, not two, and
// nothing heard in between is lost.
import { test, expect, hydrated } from './daemon';

async function browserClients(url: string): Promise<number> {
  const health = await fetch(`${url}/api/health`).then((response) => response.json());
  return health.browserClients;
}

test('the first script opens the stream and the page goes on with that one connection', async ({ page, daemon }) => {
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
  // The WebAssembly is held back until the first script has heard `init` and a question asked
  // meanwhile.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/pkg/hark.wasm', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(daemon.url + '/', { waitUntil: 'commit' });
  const heard = () => page.evaluate(() => (window as any).__harkEvents?.heard.length ?? 0);
  await expect.poll(heard, { timeout: 10_000 }).toBe(1);
  expect(await browserClients(daemon.url)).toBe(1);
  const asked = await daemon.ask({ questions: [{ question: 'Heard early?', options: [{ label: 'Yes' }] }] });
  await expect.poll(heard, { timeout: 10_000 }).toBe(2);
  release();

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
