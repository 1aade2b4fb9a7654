// The WeChat part of "Notify me elsewhere" in a real Chromium, against a stand-in iLink API on
// 127.0.0.1: "Log in with WeChat" shows the QR code the daemon drew, the number WeChat asks for
// is typed in the page and reaches WeChat, the confirmed login shows, a test message reaches
// the person, and logging out forgets them (the token is never in the page). Once in English,
// once in Chinese.

import { test, expect, hydrated } from './daemon';
import { createServer, type Server } from 'node:http';

const TOKEN = 'ilinkbot-e2e-settings-token-never-shown';
const ME = 'o9e2e_me@im.wechat';

type Fake = { url: string; server: Server; sent: any[]; verifyCodes: string[]; script: (status: any) => void };

/** An iLink stand-in: the login code, a scripted status poll, a short update poll, sendmessage. */
async function fakeIlink(): Promise<Fake> {
  const sent: any[] = [];
  const verifyCodes: string[] = [];
  const statuses: any[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const reply = (json: any) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(json));
      };
      const url = new URL(request.url ?? '/', 'http://stand-in');
      if (url.pathname === '/ilink/bot/get_bot_qrcode') {
        return reply({ qrcode: 'qr-e2e', qrcode_img_content: 'https://liteapp.weixin.qq.com/q/e2e?qrcode=qr-e2e&bot_type=3' });
      }
      if (url.pathname === '/ilink/bot/get_qrcode_status') {
        const code = url.searchParams.get('verify_code');
        if (code) verifyCodes.push(code);
        // A short hold, not WeChat's 35 s.
        return setTimeout(() => reply(statuses.shift() ?? { status: 'wait' }), 200);
      }
      if (url.pathname === '/ilink/bot/getupdates') {
        const cursor = body ? JSON.parse(body).get_updates_buf : '';
        return setTimeout(() => reply({ ret: 0, msgs: [], get_updates_buf: cursor || 'c0' }), 300);
      }
      if (url.pathname === '/ilink/bot/sendmessage') {
        if (request.headers.authorization === `Bearer ${TOKEN}`) sent.push(JSON.parse(body).msg);
        return reply({ ret: 0 });
      }
      response.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as any).port}`;
  return { url, server, sent, verifyCodes, script: (status) => statuses.push(status) };
}

const languages = [
  {
    locale: 'en-US',
    code: 'en',
    heading: 'WeChat',
    connect: 'Log in with WeChat',
    scan: 'Scan this code with WeChat',
    needsCode: 'WeChat shows a number on your phone',
    number: 'Number from your phone',
    sendNumber: 'Send the number',
    check: 'I have scanned it: check again',
    confirmed: 'Logged in.',
    paired: 'Logged in: questions go to the WeChat that scanned',
    notPaired: 'Not logged in.',
    test: 'Send a test message to WeChat',
    sentText: 'Hark can reach this WeChat',
    through: 'The test got through.',
    logout: 'Log out of WeChat',
  },
  {
    locale: 'zh-CN',
    code: 'zh-CN',
    heading: '微信',
    connect: '用微信登录',
    scan: '用微信扫描此二维码',
    needsCode: '微信在你的手机上显示了一个数字',
    number: '手机上显示的数字',
    sendNumber: '提交数字',
    check: '我已扫码：再检查一次',
    confirmed: '已登录。',
    paired: '已登录：问题会发到扫码的微信',
    notPaired: '未登录。',
    test: '向微信发送测试消息',
    sentText: 'Hark 可以联系到这个微信',
    through: '测试已送达。',
    logout: '退出微信登录',
  },
];

for (const lang of languages) {
  test.describe(lang.locale, () => {
    test.use({ locale: lang.locale });

    test(`WeChat is logged in from settings by its QR code (${lang.locale})`, async ({ page, daemon }) => {
      const fake = await fakeIlink();
      try {
        const pointed = await fetch(`${daemon.url}/api/config`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ language: lang.code, channels: { wechat: { apiBase: fake.url } } }),
        });
        expect(pointed.status).toBe(200);
        await page.goto(daemon.url + '/settings');
        await hydrated(page);
        const wechat = page.locator('fieldset.wechat');
        await expect(wechat.getByText(lang.heading, { exact: true })).toBeVisible();
        await expect(wechat.getByTestId('wechat-paired')).toHaveText(lang.notPaired);

        await wechat.getByRole('button', { name: lang.connect }).click();
        await expect(wechat.getByTestId('wechat-login-state')).toContainText(lang.scan);
        await expect(wechat.getByTestId('wechat-qr').locator('svg')).toBeVisible();

        fake.script({ status: 'scaned' });
        fake.script({ status: 'need_verifycode' });
        await expect
          .poll(async () => (await fetch(`${daemon.url}/api/channels`).then((r) => r.json())).wechat.login?.state, { timeout: 10_000 })
          .toBe('needsCode');
        await wechat.getByRole('button', { name: lang.check }).click();
        await expect(wechat.getByTestId('wechat-login-state')).toContainText(lang.needsCode);
        await wechat.getByLabel(lang.number).fill('4821');
        await wechat.getByRole('button', { name: lang.sendNumber }).click();
        await expect.poll(() => fake.verifyCodes, { timeout: 10_000 }).toEqual(['4821']);

        fake.script({ status: 'confirmed', bot_token: TOKEN, ilink_bot_id: 'b@im.bot', baseurl: fake.url, ilink_user_id: ME });
        await expect
          .poll(async () => (await fetch(`${daemon.url}/api/channels`).then((r) => r.json())).wechat.paired, { timeout: 10_000 })
          .toBe(true);
        await page.reload();
        await hydrated(page);
        await expect(wechat.getByTestId('wechat-login-state')).toHaveText(lang.confirmed);
        await expect(wechat.getByTestId('wechat-paired')).toContainText(lang.paired);
        await expect(page.getByTestId('wechat-enabled')).toBeChecked();
        expect(await page.content()).not.toContain(TOKEN);

        await page.getByRole('button', { name: lang.test }).click();
        await expect(page.getByTestId('test-result')).toHaveText(lang.through);
        expect(fake.sent.some((message) => message.to_user_id === ME && message.item_list[0].text_item.text.includes(lang.sentText))).toBe(true);

        await wechat.getByRole('button', { name: lang.logout }).click();
        await expect(wechat.getByTestId('wechat-paired')).toHaveText(lang.notPaired);
      } finally {
        fake.server.closeAllConnections();
        fake.server.close();
      }
    });
  });
}
