// Feishu/Lark's part of "Notify me elsewhere" in a real Chromium, against a stand-in of the Open
// Platform on 127.0.0.1: an App ID of the wrong shape and an App Secret Feishu does not take are
// explained in the page's language and name what is wrong; the right ones give the pairing code
// to send the bot (`pair <code>`), the address the stand-in lives at is kept (not replaced by
// Feishu's), and the App Secret never reaches the page. Once in English, once in Chinese.

import { test, expect, hydrated } from './daemon';
import { createServer, type Server } from 'node:http';

const APP_ID = 'cli_e2e0123456789abc';
const SECRET = 'e2e-app-secret-never-shown-0123';

/** The tenant token (Feishu's 400s for wrong credentials), the bot, and the connection's address. */
async function fakeFeishu(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : {};
      const reply = (status: number, json: any) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(json));
      };
      if (request.url === '/open-apis/auth/v3/tenant_access_token/internal') {
        if (body.app_id !== APP_ID) return reply(400, { code: 10003, msg: 'invalid param' });
        if (body.app_secret !== SECRET) return reply(400, { code: 10014, msg: 'app secret invalid' });
        return reply(200, { code: 0, msg: 'ok', tenant_access_token: 't-e2e', expire: 7200 });
      }
      if (request.url === '/open-apis/bot/v3/info') {
        if (request.headers.authorization !== 'Bearer t-e2e') return reply(400, { code: 99991663, msg: 'Invalid access token' });
        return reply(200, { code: 0, msg: 'ok', bot: { app_name: 'Hark Bot', open_id: 'ou_bot', activate_status: 2 } });
      }
      if (request.url === '/callback/ws/endpoint') {
        // No connection to open here: the page shows the app as not connected, which is true.
        return reply(200, { code: 0, msg: 'ok', data: { URL: 'ws://127.0.0.1:9/ws?service_id=1', ClientConfig: { PingInterval: 120 } } });
      }
      reply(404, { code: 404, msg: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as any).port}`, server };
}

const languages = [
  {
    locale: 'en-US',
    code: 'en',
    connect: 'Check the app and get a pairing code',
    shape: 'This does not look like an App ID',
    wrongSecret: 'The App Secret does not match this App ID',
    codeHelp: 'To pair, send this to the bot in a direct message within 10 minutes:',
    notPaired: 'Nobody is paired yet.',
    bot: 'App: Hark Bot',
  },
  {
    locale: 'zh-CN',
    code: 'zh-CN',
    connect: '检查应用并获取配对码',
    shape: '这看起来不像 App ID',
    wrongSecret: 'App Secret 与这个 App ID 不匹配',
    codeHelp: '要完成配对，请在 10 分钟内私聊机器人发送：',
    notPaired: '还没有人配对。',
    bot: '应用：Hark Bot',
  },
];

for (const lang of languages) {
  test.describe(lang.locale, () => {
    test.use({ locale: lang.locale });

    test(`Feishu/Lark is set up from settings and gives a pairing code (${lang.locale})`, async ({ page, daemon }) => {
      const fake = await fakeFeishu();
      try {
        const pointed = await fetch(`${daemon.url}/api/config`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ language: lang.code, channels: { feishu: { apiBase: fake.url } } }),
        });
        expect(pointed.status).toBe(200);
        await page.goto(daemon.url + '/settings');
        await hydrated(page);
        const feishu = page.locator('fieldset.feishu');
        await expect(feishu.getByTestId('feishu-paired')).toHaveText(lang.notPaired);
        // The stand-in's address is what the platform picker keeps.
        await expect(feishu.getByTestId('feishu-platform')).toHaveValue('');
        const connect = feishu.getByRole('button', { name: lang.connect });

        await feishu.locator('#feishu-app-id').fill('a1b2c3');
        await feishu.locator('#feishu-app-secret').fill(SECRET);
        await connect.click();
        await expect(feishu.getByTestId('feishu-problem')).toContainText(lang.shape);

        await feishu.locator('#feishu-app-id').fill(APP_ID);
        await feishu.locator('#feishu-app-secret').fill('wrong-secret');
        await connect.click();
        await expect(feishu.getByTestId('feishu-problem')).toContainText(lang.wrongSecret);

        await feishu.locator('#feishu-app-id').fill(APP_ID);
        await feishu.locator('#feishu-app-secret').fill(SECRET);
        await connect.click();
        await expect(feishu.getByTestId('feishu-code')).toHaveText(/^pair [A-Z2-9]{10}$/);
        await expect(feishu.getByText(lang.codeHelp)).toBeVisible();
        await expect(feishu.getByTestId('feishu-token-set')).toBeVisible();
        await expect(feishu.getByTestId('feishu-bot')).toHaveText(lang.bot);
        expect(await page.content()).not.toContain(SECRET);
        const config = await fetch(`${daemon.url}/api/config`).then((response) => response.json());
        expect(config.channels.feishu.enabled).toBe(true);
        expect(config.channels.feishu.apiBase).toBe(fake.url);
      } finally {
        fake.server.close();
      }
    });
  });
}
