// A phone, as Chromium emulates one (touch, a phone's screen), against a daemon that asks every
// peer for the token, the way a daemon in LAN mode asks a phone: the pairing URL pairs it, it
// answers by touch, portrait and landscape, and the send button stays in sight when the
// on-screen keyboard takes half the screen. And no page breaks its Content Security Policy.
import { test, expect, hydrated } from './daemon';
import { devices, type Page } from '@playwright/test';

/** Collects every CSP violation the page reports, from its first script on. */
async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (execute|load|apply)/.test(message.text())) {
      violations.push(message.text());
    }
  });
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as any).reportCspViolation(`${event.violatedDirective} ${event.blockedURI}`),
    ),
  );
  return violations;
}

test.describe('on a phone', () => {
  const { defaultBrowserType: _, ...pixel } = devices['Pixel 7'];
  test.use(pixel);

  test('pairs from the QR code URL, then answers by touch', async ({ page, pairedDaemon: daemon }) => {
    const violations = await watchCsp(page);
    const question = await daemon.ask({
      title: 'Release **2.3**',
      questions: [
        {
          question: 'Deploy now?',
          options: [{ label: 'Yes', recommended: true }, { label: 'No' }],
        },
      ],
    });

    const refused = await page.goto(daemon.url + '/');
    expect(refused!.status()).toBe(401);
    await expect(page.getByRole('heading', { name: 'Pair this device first' })).toBeVisible();
    await expect(page.getByText('Deploy now?')).toHaveCount(0);

    await page.goto(`${daemon.url}/?token=${daemon.token}`);
    await expect(page).toHaveURL(daemon.url + '/');
    await hydrated(page);
    // The live stream opened with the cookie.
    await expect(page.locator('[data-connection="live"]')).toBeVisible();
    const second = await daemon.ask({ questions: [{ question: 'Second?', options: [{ label: 'Fine' }] }] });
    await expect(page.getByText('Second?')).toBeVisible();

    await page.getByText('Release 2.3').tap();
    await hydrated(page);
    await page.getByText('Yes', { exact: true }).tap();
    await page.getByRole('button', { name: 'Send answer' }).tap();
    await expect.poll(async () => (await daemon.question(question.id)).status).toBe('answered');
    expect((await daemon.question(question.id)).answers).toEqual([{ selected: ['Yes'] }]);

    // The queue moves on to the second question; turned sideways it still fits.
    await expect(page).toHaveURL(`${daemon.url}/q/${second.id}`);
    await page.setViewportSize({ width: 915, height: 412 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(915);
    await expect(page.getByRole('button', { name: 'Send answer' })).toBeInViewport();

    // The keyboard up: the page shrinks to what is left, and the send button is still there.
    await page.setViewportSize({ width: 412, height: 420 });
    await page.locator('#q0-text').tap();
    await page.keyboard.type('on Monday');
    await expect(page.getByRole('button', { name: 'Send answer' })).toBeInViewport();

    // Installable: the manifest comes with the cookie.
    const manifest = await page.evaluate(async () => {
      const response = await fetch('/manifest.webmanifest', { credentials: 'same-origin' });
      return response.ok ? response.json() : null;
    });
    expect(manifest?.name).toBe('Hark');
    expect(violations).toEqual([]);
  });
});

test('no page breaks its Content Security Policy', async ({ page, daemon }) => {
  const violations = await watchCsp(page);
  const question = await daemon.ask({
    title: '```json\n{"a": 1}\n```',
    questions: [{ question: 'Pick **one**', options: [{ label: 'A' }, { label: 'B' }] }],
  });
  for (const where of ['/', `/q/${question.id}`, '/settings', '/no/such/page']) {
    await page.goto(daemon.url + where);
    if (where !== '/no/such/page') await hydrated(page);
  }
  await page.getByTestId('header-theme').selectOption('dark');
  await page.getByTestId('header-language').selectOption('ja');
  expect(violations).toEqual([]);
});
