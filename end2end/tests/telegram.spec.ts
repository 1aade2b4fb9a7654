// The Telegram part of "Notify me elsewhere" in a real Chromium, against a stand-in Bot API on
// 127.0.0.1: a wrong token is refused in the page's language, the right one shows the bot and a
// pairing code (never the token), the chat that sends the code is paired, and a test message
// reaches it. Once in English, once in Russian.

import { test, expect, hydrated } from './daemon';
import { createServer, type Server } from 'node:http';

const TOKEN = '5151515151:AAHe2eTokenForTheSettingsTest_abcdefg';
const ME = 8_000_001;

type Fake = { url: string; server: Server; sent: any[]; send: (update: any) => void };

/** A Bot API stand-in: getMe, a short long poll, sendMessage and answerCallbackQuery. */
async function fakeTelegram(): Promise<Fake> {
  const sent: any[] = [];
  let updates: any[] = [];
  let nextUpdate = 1;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const reply = (status: number, json: any) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(json));
      };
      const [, bot, method] = (request.url ?? '').split('/');
      if (bot !== `bot${TOKEN}`) return reply(401, { ok: false, error_code: 401, description: 'Unauthorized' });
      const params = body ? JSON.parse(body) : {};
      if (method === 'getMe') {
        return reply(200, { ok: true, result: { id: 5151515151, is_bot: true, first_name: 'E2E', username: 'hark_e2e_bot' } });
      }
      if (method === 'getUpdates') {
        const fresh = updates.filter((update) => update.update_id >= (params.offset ?? 0));
        updates = fresh;
        // A short hold, not Telegram's 25 s: the test's server closes soon after.
        return setTimeout(() => reply(200, { ok: true, result: fresh }), fresh.length ? 0 : 300);
      }
      if (method === 'sendMessage') {
        sent.push(params);
        return reply(200, {
          ok: true,
          result: { message_id: sent.length, date: 0, chat: { id: params.chat_id, type: 'private' }, text: params.text },
        });
      }
      return reply(200, { ok: true, result: true });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as any).port}`;
  const send = (message: any) => updates.push({ update_id: nextUpdate++, message });
  return { url, server, sent, send };
}

const languages = [
  {
    locale: 'en-US',
    code: 'en',
    heading: 'Telegram bot',
    token: 'Bot token',
    connect: 'Check the token and get a pairing code',
    shape: 'This does not look like a bot token',
    bot: 'Bot: @hark_e2e_bot',
    paired: 'A chat is paired',
    notPaired: 'No chat is paired yet.',
    test: 'Send a test message to Telegram',
    sentText: 'Hark can reach this chat',
    through: 'The test got through.',
  },
  {
    locale: 'ru-RU',
    code: 'ru',
    heading: 'Бот Telegram',
    token: 'Токен бота',
    connect: 'Проверить токен и получить код привязки',
    shape: 'Это не похоже на токен бота',
    bot: 'Бот: @hark_e2e_bot',
    paired: 'Чат привязан',
    notPaired: 'Чат ещё не привязан.',
    test: 'Отправить тестовое сообщение в Telegram',
    sentText: 'Hark может писать в этот чат',
    through: 'Тест дошёл.',
  },
];

for (const lang of languages) {
  test.describe(lang.locale, () => {
    test.use({ locale: lang.locale });

    test(`the Telegram bot is set up and paired from settings (${lang.locale})`, async ({ page, daemon }) => {
      const fake = await fakeTelegram();
      try {
        const pointed = await fetch(`${daemon.url}/api/config`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          // The bot writes in the language picked last (as the desktop notifications do).
          body: JSON.stringify({ language: lang.code, channels: { telegram: { apiBase: fake.url } } }),
        });
        expect(pointed.status).toBe(200);
        await page.goto(daemon.url + '/settings');
        await hydrated(page);
        const bot = page.locator('fieldset.telegram');
        await expect(bot.getByText(lang.heading, { exact: true })).toBeVisible();
        await expect(bot.getByTestId('telegram-paired')).toHaveText(lang.notPaired);

        await bot.getByLabel(lang.token).fill('not a token');
        await bot.getByRole('button', { name: lang.connect }).click();
        await expect(bot.getByTestId('telegram-problem')).toContainText(lang.shape);

        await bot.getByLabel(lang.token).fill(TOKEN);
        await bot.getByRole('button', { name: lang.connect }).click();
        await expect(bot.getByTestId('telegram-bot')).toHaveText(lang.bot);
        const command = await bot.getByTestId('telegram-code').textContent();
        expect(command).toMatch(/^\/start [A-Z2-9]{10}$/);
        const code = command!.split(' ')[1];
        await expect(bot.getByTestId('telegram-link')).toHaveAttribute('href', `https://t.me/hark_e2e_bot?start=${code}`);
        await expect(bot.getByTestId('telegram-token-set')).toBeVisible();
        expect(await page.content()).not.toContain(TOKEN.split(':')[1]);
        const config = await fetch(`${daemon.url}/api/config`).then((r) => r.json());
        expect(config.channels.telegram.enabled).toBe(true);
        expect(JSON.stringify(config)).not.toContain(TOKEN.split(':')[1]);

        // The person sends the code from their chat: it is paired.
        fake.send({ message_id: 1, date: 0, chat: { id: ME, type: 'private' }, from: { id: ME, is_bot: false, first_name: 'Me' }, text: `/start ${code}` });
        await expect.poll(async () => (await fetch(`${daemon.url}/api/channels`).then((r) => r.json())).telegram.paired, { timeout: 10_000 }).toBe(true);
        await page.reload();
        await hydrated(page);
        await expect(bot.getByTestId('telegram-paired')).toContainText(lang.paired);
        await expect(bot.getByTestId('telegram-code')).toHaveCount(0);

        await page.getByRole('button', { name: lang.test }).click();
        await expect(page.getByTestId('test-result')).toHaveText(lang.through);
        expect(fake.sent.some((message) => message.chat_id === ME && message.text.includes(lang.sentText))).toBe(true);

        await bot.getByTestId('telegram-unpair').click();
        await expect(bot.getByTestId('telegram-paired')).toHaveText(lang.notPaired);
      } finally {
        fake.server.closeAllConnections();
        fake.server.close();
      }
    });
  });
}
