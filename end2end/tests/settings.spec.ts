// The settings panel: saves through a server function, names what is wrong, and applies live
// to every open page.
import { test, expect, hydrated } from './daemon';

const config = (url: string) => fetch(`${url}/api/config`).then((r) => r.json());

test('settings are saved, validated and applied live to other pages', async ({ page, context, daemon }) => {
  const other = await context.newPage();
  await other.goto(daemon.url + '/settings');
  await hydrated(other);
  await page.goto(daemon.url + '/');
  await hydrated(page);
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(daemon.url + '/settings');
  await expect(page.getByLabel('Reminder interval (seconds)')).toHaveValue('60');

  await page.getByLabel('Default time limit (seconds)').fill('600');
  await page.getByLabel('Reminder interval (seconds)').fill('90');
  await page.getByLabel('Play a short sound when a question arrives').uncheck();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  const saved = await config(daemon.url);
  expect([saved.timeoutSecs, saved.remindSecs, saved.sound, saved.notification]).toEqual([600, 90, false, true]);
  // The other page follows without a reload.
  await expect(other.getByLabel('Reminder interval (seconds)')).toHaveValue('90');
  await expect(other.getByLabel('Play a short sound when a question arrives')).not.toBeChecked();

  await page.getByLabel('Keep history for (days)').fill('0');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'history' })).toContainText('from 1 to 3650 days');
  await page.getByLabel('Keep history for (days)').fill('30');

  await page.getByLabel('Reminder interval (seconds)').fill('999999');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'reminder interval' })).toContainText('from 0 to 86400');
  expect((await config(daemon.url)).remindSecs).toBe(90);
});

test('agent sessions: when to be told, how long a finished agent is held, when one is forgotten', async ({ page, daemon }) => {
  await page.goto(daemon.url + '/settings');
  await hydrated(page);
  await expect(page.getByLabel('Tell me when an agent finishes its turn')).toBeChecked();
  await expect(page.getByLabel('Hold a finished agent for your reply (seconds)')).toHaveValue('0');
  await page.getByLabel('Tell me when an agent finishes its turn').uncheck();
  await page.getByLabel('Hold a finished agent for your reply (seconds)').fill('300');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  const saved = await config(daemon.url);
  expect([saved.notifyOn, saved.continueWaitSecs]).toEqual([['waiting'], 300]);
  await page.getByLabel('Forget an agent that went quiet after (seconds)').fill('5');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('alert')).toContainText('from 60 to 604800');
  expect((await config(daemon.url)).sessionIdleSecs).toBe(14400);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('settings save as a plain form', async ({ page, daemon }) => {
    await page.goto(daemon.url + '/settings');
    await page.getByLabel('Default time limit (seconds)').fill('120');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page).toHaveURL(daemon.url + '/settings');
    expect((await config(daemon.url)).timeoutSecs).toBe(120);
    await expect(page.getByLabel('Default time limit (seconds)')).toHaveValue('120');
  });
});

test('"Notify me elsewhere" saves ntfy and webhooks, keeps the token secret and sends a test push', async ({ page, daemon }) => {
  // A stand-in ntfy server that records what it is sent.
  const { createServer } = await import('node:http');
  const pushes: any[] = [];
  const ntfy = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      pushes.push({ authorization: request.headers.authorization, body: JSON.parse(body) });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"id":"x"}');
    });
  });
  await new Promise<void>((resolve) => ntfy.listen(0, '127.0.0.1', resolve));
  const ntfyUrl = `http://127.0.0.1:${(ntfy.address() as any).port}`;
  try {
    await page.goto(daemon.url + '/settings');
    await hydrated(page);
    const section = page.locator('section.elsewhere');
    await expect(section.getByRole('heading', { name: 'Notify me elsewhere' })).toBeVisible();
    // Neither a public address nor LAN mode: the page says pushes carry text only.
    await expect(section.getByTestId('no-links')).toBeVisible();
    await section.getByLabel('Push each question to my phone with ntfy').check();
    await section.getByLabel('ntfy server').fill(ntfyUrl);
    await section.getByLabel('Topic').fill('hark-e2e-topic');
    await section.getByLabel('Access token (optional)').fill('tk_e2e_secret');
    await section.getByLabel('Webhooks').fill('https://hooks.example/hark');
    await section.getByRole('button', { name: 'Save channels' }).click();
    await expect(section.getByTestId('ntfy-token-set')).toBeVisible();
    await expect(section.getByTestId('webhook-secret')).toContainText('whsec_');
    const saved = await fetch(`${daemon.url}/api/config`).then((r) => r.json());
    expect(saved.channels.ntfy).toEqual({ enabled: true, server: ntfyUrl, topic: 'hark-e2e-topic' });
    expect(saved.channels.webhooks).toEqual([{ url: 'https://hooks.example/hark', events: ['question:created', 'question:closed'] }]);
    expect(JSON.stringify(saved)).not.toContain('tk_e2e_secret');
    expect(await page.content()).not.toContain('tk_e2e_secret');

    await section.getByRole('button', { name: 'Send a test push' }).click();
    await expect(section.getByTestId('test-result')).toHaveText('The test got through.');
    expect(pushes[0].body.topic).toBe('hark-e2e-topic');
    expect(pushes[0].authorization).toBe('Bearer tk_e2e_secret');

    // A bad topic is named, in the page's words, and nothing changes.
    await section.getByLabel('Topic').fill('no spaces/allowed');
    await section.getByRole('button', { name: 'Save channels' }).click();
    await expect(section.getByRole('alert')).toContainText('A channel setting is not valid');
    expect((await fetch(`${daemon.url}/api/config`).then((r) => r.json())).channels.ntfy.topic).toBe('hark-e2e-topic');
  } finally {
    ntfy.close();
  }
});

// A preset is the person's own text, shown back exactly: markup in it stays text in the
// server's page (which works without JavaScript) and in the hydrated one.
const planted = '</textarea><form id="planted" action="/api/token/rotate" method="post"><button>Go</button></form> & "quotes" \'too\'';

for (const javaScriptEnabled of [true, false]) {
  test.describe(`markup in a preset, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled });
    test('stays text in its box', async ({ page, daemon }) => {
      const saved = await fetch(`${daemon.url}/api/config`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ presets: [planted, 'second <b>reply</b>'] }),
      });
      expect(saved.status).toBe(200);
      await page.goto(daemon.url + '/settings');
      if (javaScriptEnabled) await hydrated(page);
      await expect(page.getByTestId('presets-field')).toHaveValue(`${planted}\nsecond <b>reply</b>`);
      await expect(page.locator('#planted')).toHaveCount(0);
      await expect(page.locator('b', { hasText: 'reply' })).toHaveCount(0);
    });
  });
}

for (const javaScriptEnabled of [true, false]) {
  test(`a webhook address with markup in it is refused and never rendered, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async ({ browser, daemon }) => {
    const context = await browser.newContext({ javaScriptEnabled });
    const page = await context.newPage();
    await page.goto(daemon.url + '/settings');
    if (javaScriptEnabled) await hydrated(page);
    const section = page.locator('section.elsewhere');
    await section.getByLabel('Webhooks').fill('https://hooks.example/"><b id="planted">x</b>');
    await section.getByRole('button', { name: 'Save channels' }).click();
    await expect(page.getByRole('alert').filter({ hasText: /./ }).first()).toBeVisible();
    const saved = await fetch(`${daemon.url}/api/config`).then((r) => r.json());
    expect(saved.channels?.webhooks ?? []).toEqual([]);
    await page.goto(daemon.url + '/settings');
    await expect(page.locator('#planted')).toHaveCount(0);
    await context.close();
  });
}
