// Getting attention while the tab is hidden: title flash, browser notification (permission only
// on a click), chime, and repeats on reminders. The browser APIs are stubbed to observe them.
import { test, expect, hydrated } from './daemon';

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    const w = window as any;
    w.__hidden = false;
    w.__notes = [];
    w.__asked = 0;
    w.__chimes = 0;
    Object.defineProperty(document, 'hidden', { get: () => w.__hidden, configurable: true });
    class FakeNotification {
      static permission = w.__permission ?? 'default';
      static requestPermission() {
        w.__asked += 1;
        FakeNotification.permission = 'granted';
        return Promise.resolve('granted');
      }
      constructor(title: string, options: any) {
        w.__notes.push({ title, body: options?.body });
      }
    }
    w.Notification = FakeNotification;
    const RealAudio = w.AudioContext;
    w.AudioContext = class extends RealAudio {
      constructor() {
        super();
        w.__chimes += 1;
      }
    };
  });
});

test('a hidden tab flashes its title, notifies and chimes; permission is asked on a click only', async ({ page, daemon }) => {
  await page.goto(daemon.url + '/');
  await hydrated(page);
  await expect(page.locator('[data-connection="live"]')).toBeVisible();
  expect(await page.evaluate(() => (window as any).__asked)).toBe(0);
  await page.getByRole('button', { name: 'Turn on notifications' }).click();
  await expect(page.getByRole('button', { name: 'Turn on notifications' })).toBeHidden();
  expect(await page.evaluate(() => (window as any).__asked)).toBe(1);

  await page.evaluate(() => ((window as any).__hidden = true));
  await daemon.ask({ questions: [{ question: 'Merge the branch?' }] });
  await expect.poll(() => page.evaluate(() => (window as any).__notes)).toEqual([
    { title: 'Your agent has a question', body: 'Merge the branch?' },
  ]);
  expect(await page.evaluate(() => (window as any).__chimes)).toBeGreaterThan(0);
  await expect(page).toHaveTitle('(1) A question is waiting', { timeout: 5000 });

  await page.evaluate(() => ((window as any).__hidden = false));
  await expect(page).toHaveTitle('Hark — questions from your agents', { timeout: 5000 });
});

test('a hidden tab tells of an agent that finished, and not of one at work', async ({ page, daemon }) => {
  await page.goto(daemon.url + '/');
  await hydrated(page);
  await expect(page.locator('[data-connection="live"]')).toBeVisible();
  await page.getByRole('button', { name: 'Turn on notifications' }).click();
  await page.evaluate(() => ((window as any).__hidden = true));
  const report = (state: string, lastMessage?: string) =>
    fetch(`${daemon.url}/api/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent: { client: 'claude-code', cwd: '/home/me/shop' }, state, lastMessage }),
    });
  await report('working');
  await report('finished', 'All 42 tests pass.');
  await expect.poll(() => page.evaluate(() => (window as any).__notes)).toEqual([
    { title: 'claude-code · shop finished its turn', body: 'All 42 tests pass.' },
  ]);
  expect(await page.evaluate(() => (window as any).__chimes)).toBeGreaterThan(0);
});

test('with sound and notifications off, a hidden tab stays quiet', async ({ page, daemon }) => {
  await fetch(`${daemon.url}/api/config`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sound: false, notification: false }),
  });
  await page.addInitScript(() => ((window as any).__permission = 'granted'));
  await page.goto(daemon.url + '/');
  await hydrated(page);
  await expect(page.locator('[data-connection="live"]')).toBeVisible();
  await page.evaluate(() => ((window as any).__hidden = true));
  await daemon.ask({ questions: [{ question: 'Quiet?' }] });
  await expect(page.getByTestId('pending-list')).toContainText('Quiet?');
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => [(window as any).__notes.length, (window as any).__chimes])).toEqual([0, 0]);
  await expect(page).toHaveTitle('(1) A question is waiting', { timeout: 5000 });
});
