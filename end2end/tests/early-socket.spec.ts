// The page's first script opens the event stream before the WebAssembly arrives, and the page
// takes that connection over once it has hydrated (issue 30): one connection, not two, and
// nothing heard in between is lost.
import { test, expect, hydrated, holdBack } from './daemon';

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
  const release = await holdBack(page, '**/pkg/hark.wasm');
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

test('a question asked while the WebAssembly loads shows at once, and words typed meanwhile stay', async ({
  page,
  daemon,
}) => {
  const source = { client: 'claude-code 2.1.3', cwd: '/w/hark' };
  await daemon.ask({ questions: [{ question: 'Already here?' }], source });
  const release = await holdBack(page, '**/pkg/hark.wasm');
  // The lists' first fetch (on `init`) waits until the page's own list is marked.
  const releaseLists = await holdBack(page, '**/fn/inbox_lists*');
  await page.goto(daemon.url + '/', { waitUntil: 'commit' });
  const list = page.getByTestId('pending-list');
  await expect(list).toContainText('Already here?');
  const settled = () => page.evaluate(() => (window as any).__harkInbox.lists);

  // The same lists as the page's are not written again (a screen reader would announce them).
  await page.evaluate(() => ((document.getElementById('waiting-list')!.firstElementChild as any).kept = true));
  const first = page.waitForResponse((response) => response.url().includes('/fn/inbox_lists'));
  releaseLists();
  await first;
  await settled();
  const kept = await page.evaluate(() => (document.getElementById('waiting-list')!.firstElementChild as any).kept);
  expect(kept).toBe(true);

  // Written by the page's script from the server's new lists, before any WebAssembly: its link
  // already opens the question.
  const asked = await daemon.ask({ questions: [{ question: 'Asked during the load?' }], source });
  await expect(list).toContainText('Asked during the load?');
  expect(await page.locator('body').getAttribute('data-hydrated')).toBeNull();
  await expect(list.locator(`a[href="/q/${asked.id}"]`).first()).toBeVisible();

  // Words typed in a Tell box before hydration, the box closed again: left as they are, and
  // the question asked meanwhile waits for the island, which redraws around the box.
  const group = page.locator('section.group', { hasText: 'claude-code 2.1.3 · hark' });
  const opener = group.getByText('Tell the agent…');
  await opener.click();
  await group.getByTestId('tell-text').fill('Begun early');
  await opener.click();
  await page.locator('h1').click();
  await expect(group.locator('details')).not.toHaveAttribute('open', '');
  const fetched = page.waitForResponse((response) => response.url().includes('/fn/inbox_lists'));
  await daemon.ask({ questions: [{ question: 'Asked while typing?' }], source });
  await fetched;
  // Settled in the page after the script's own handler of the same answer has run.
  expect(await settled()).toContain('Asked while typing?');
  expect(await list.textContent()).not.toContain('Asked while typing?');
  await expect(group.getByTestId('tell-text')).toHaveValue('Begun early');

  release();
  await hydrated(page);
  await expect(list).toContainText('Asked while typing?');
  await expect(group.getByTestId('tell-text')).toHaveValue('Begun early');
});
