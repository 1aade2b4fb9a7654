// Slack's part of "Notify me elsewhere" in a real Chromium, against a stand-in of Slack's Web API
// on 127.0.0.1: a token of the wrong shape and one Slack does not take are explained in the
// page's language and name which token is wrong; the right ones give the pairing code to send
// the app (`pair <code>`), and neither token ever reaches the page. Once in English, once in
// Chinese.

import { test, expect, hydrated } from './daemon';
import { createServer, type Server } from 'node:http';

const BOT = 'xoxb-e2e-bot-token-never-shown';
const APP = 'xapp-1-e2e-app-token-never-shown';

/** The Web API's `auth.test` and `apps.connections.open`, each checking its own token. */
async function fakeSlack(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const bearer = (request.headers.authorization ?? '').replace('Bearer ', '');
      const reply = (json: any) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(json));
      };
      if (request.url === '/api/auth.test') {
        return reply(bearer === BOT ? { ok: true, user_id: 'UBOT', user: 'hark', team: 'Hark Team' } : { ok: false, error: 'invalid_auth' });
      }
      if (request.url === '/api/apps.connections.open') {
        // No link to open here: the page shows the app as not connected, which is true.
        return reply(bearer === APP ? { ok: true, url: 'ws://127.0.0.1:9/link/' } : { ok: false, error: 'invalid_auth' });
      }
      reply({ ok: false, error: 'unknown_method' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as any).port}/api`, server };
}

const languages = [
  {
    locale: 'en-US',
    code: 'en',
    connect: 'Check the tokens and get a pairing code',
    shape: 'This does not look like a bot token',
    wrongApp: 'Slack does not take this app-level token',
    code_help: 'To pair, send this to the app in a direct message in Slack within 10 minutes:',
    notPaired: 'Nobody is paired yet.',
  },
  {
    locale: 'zh-CN',
    code: 'zh-CN',
    connect: '检查令牌并获取配对码',
    shape: '这看起来不像机器人令牌',
    wrongApp: 'Slack 不接受这个应用级令牌',
    code_help: '要完成配对，请在 10 分钟内通过 Slack 私信把这段发给应用：',
    notPaired: '还没有人配对。',
  },
];

for (const lang of languages) {
  test.describe(lang.locale, () => {
    test.use({ locale: lang.locale });

    test(`Slack is set up from settings and gives a pairing code (${lang.locale})`, async ({ page, daemon }) => {
      const fake = await fakeSlack();
      try {
        const pointed = await fetch(`${daemon.url}/api/config`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ language: lang.code, channels: { slack: { apiBase: fake.url } } }),
        });
        expect(pointed.status).toBe(200);
        await page.goto(daemon.url + '/settings');
        await hydrated(page);
        const slack = page.locator('fieldset.slack');
        await expect(slack.getByTestId('slack-paired')).toHaveText(lang.notPaired);
        const connect = slack.getByRole('button', { name: lang.connect });

        await slack.locator('#slack-bot-token').fill('xoxp-a-user-token');
        await slack.locator('#slack-app-token').fill(APP);
        await connect.click();
        await expect(slack.getByTestId('slack-problem')).toContainText(lang.shape);

        await slack.locator('#slack-bot-token').fill(BOT);
        await slack.locator('#slack-app-token').fill('xapp-1-wrong');
        await connect.click();
        await expect(slack.getByTestId('slack-problem')).toContainText(lang.wrongApp);

        await slack.locator('#slack-bot-token').fill(BOT);
        await slack.locator('#slack-app-token').fill(APP);
        await connect.click();
        await expect(slack.getByTestId('slack-code')).toHaveText(/^pair [A-Z2-9]{10}$/);
        await expect(slack.getByText(lang.code_help)).toBeVisible();
        await expect(slack.getByTestId('slack-token-set')).toBeVisible();
        await expect(slack.getByTestId('slack-bot')).toContainText('@hark');
        expect(await page.content()).not.toContain(BOT);
        expect(await page.content()).not.toContain(APP);
        const config = await fetch(`${daemon.url}/api/config`).then((response) => response.json());
        expect(config.channels.slack.enabled).toBe(true);
      } finally {
        fake.server.close();
      }
    });
  });
}
