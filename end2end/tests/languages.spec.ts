// Each of the five languages: the server renders it from Accept-Language alone with <html lang>
// set, no English UI string is left on the inbox, a question or settings, and the header picker
// switches at once (no reload, no lost draft) and the pick survives a reload. Then the question
// page in every language and both themes is saved to end2end/output/ for a person to look at.
import { test, expect, hydrated, holdBack, Daemon } from './daemon';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';

type Lang = { code: string; accept: string; name: string; waiting: string; sendAnswer: string };

const LANGS: Lang[] = [
  { code: 'en', accept: 'en-US', name: 'English', waiting: 'Waiting for you', sendAnswer: 'Send answer' },
  { code: 'zh-CN', accept: 'zh-Hans-CN', name: '简体中文', waiting: '等你回答', sendAnswer: '发送回答' },
  { code: 'ko', accept: 'ko-KR', name: '한국어', waiting: '답을 기다리는 질문', sendAnswer: '답 보내기' },
  { code: 'ja', accept: 'ja-JP', name: '日本語', waiting: '回答待ちの質問', sendAnswer: '回答を送信' },
  { code: 'ru', accept: 'ru-RU', name: 'Русский', waiting: 'Ждут вашего ответа', sendAnswer: 'Отправить ответ' },
];

const locales = path.resolve(__dirname, '../../locales');

/** The literal text runs of every message in a catalogue (placeables and variant keys removed). */
function fragments(code: string): Map<string, string[]> {
  const byKey = new Map<string, string[]>();
  let key = '';
  for (const line of readFileSync(path.join(locales, code, 'main.ftl'), 'utf8').split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    const start = line.match(/^([a-z0-9-]+) = ?(.*)$/);
    const text = start ? start[2] : line;
    if (start) key = start[1];
    const runs = text
      .replace(/^\s*\*?\[[^\]]+\]/, '')
      .split(/\{[^}]*\}?|\}/)
      .map((run) => run.trim())
      .filter((run) => run !== '');
    byKey.set(key, [...(byKey.get(key) ?? []), ...runs]);
  }
  return byKey;
}

/** English UI text that must not appear on a page in `code`: each English run of four or more
 *  letters that the language's own catalogue does not also contain (like "Hark" or "HARK_PORT"). */
function englishLeftovers(code: string): string[] {
  const own = [...fragments(code).values()].flat().join('\n');
  return [...fragments('en').entries()]
    .filter(([key]) => key !== 'language-name')
    .flatMap(([, runs]) => runs)
    .filter((run) => (run.match(/[A-Za-z]/g) ?? []).length >= 4 && !own.includes(run));
}

/** Everything a person can read on the page: text, placeholders, tooltips, labels, the title. */
async function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts = [document.title, document.body.innerText];
    for (const element of Array.from(document.querySelectorAll('[placeholder], [title], [aria-label], option'))) {
      for (const name of ['placeholder', 'title', 'aria-label']) {
        const value = element.getAttribute(name);
        if (value) parts.push(value);
      }
      if (element.tagName === 'OPTION') parts.push(element.textContent ?? '');
    }
    return parts.join('\n');
  });
}

async function expectNoEnglish(page: Page, lang: Lang, where: string) {
  const text = await visibleText(page);
  if (lang.code === 'en') {
    // The detector itself: on an English page it finds plenty.
    expect(englishLeftovers('ko').filter((run) => text.includes(run)).length).toBeGreaterThan(5);
    return;
  }
  const left = englishLeftovers(lang.code).filter((run) => text.includes(run));
  expect(left, `English left on ${where} in ${lang.code}`).toEqual([]);
}

/** Questions whose own text is not English, so any English found is the UI's. */
async function seed(daemon: Daemon) {
  const question = await daemon.ask({
    title: '🚀 v2.3',
    source: { client: 'agent 1.0', cwd: '/srv/app' },
    questions: [
      {
        question: '✓ / ✗ ?',
        header: 'v2.3',
        options: [
          { label: '✓', recommended: true, description: '→ 10:00' },
          { label: '✗', danger: true },
        ],
      },
      { question: '1 + 1 = ?', multiSelect: true, options: [{ label: '2' }, { label: '11' }] },
    ],
  });
  await daemon.ask({ questions: [{ question: '42?' }] });
  // An agent that finished, for the Agents page (its words are not English either).
  await fetch(`${daemon.url}/api/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agent: { client: 'agent', cwd: '/srv/web' }, state: 'finished', lastMessage: '✓ 42' }),
  });
  const old = await daemon.ask({ questions: [{ question: '7 × 6 = 42?', options: [{ label: '✓' }] }] });
  await fetch(`${daemon.url}/api/questions/${old.id}/answer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ answers: [{ selected: ['✓'] }] }),
  });
  return question;
}

for (const lang of LANGS) {
  test.describe(`${lang.code}`, () => {
    test.use({ locale: lang.accept });

    test(`Accept-Language ${lang.accept} alone renders every page in ${lang.name}`, async ({ page, daemon }) => {
      const question = await seed(daemon);
      // The narrowest phone: longer words must not push the page sideways.
      await page.setViewportSize({ width: 320, height: 720 });
      for (const where of ['/', `/q/${question.id}`, '/agents', '/settings']) {
        await page.goto(daemon.url + where);
        await hydrated(page);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), where).toBeLessThanOrEqual(320);
        await expect(page.locator('html')).toHaveAttribute('lang', lang.code);
        await expect(page.getByTestId('header-language')).toHaveValue(lang.code);
        if (where === '/') {
          await expect(page.getByRole('heading', { name: lang.waiting })).toBeVisible();
          if (lang.code === 'ru') {
            // Two waiting: the plural form for 2–4.
            await expect(page.getByTestId('pending-count')).toHaveText('2 вопроса ждут');
          }
        }
        if (where.startsWith('/q/')) {
          await expect(page.getByRole('button', { name: lang.sendAnswer })).toBeVisible();
          // Validation messages too.
          await page.getByRole('button', { name: lang.sendAnswer }).click();
          await expect(page.locator('.field-error').first()).not.toBeEmpty();
          await page.locator('details.skip summary').click();
        }
        await expectNoEnglish(page, lang, where);
      }
    });

    test(`the picker switches to ${lang.name} at once, keeps the draft, and survives a reload`, async ({ browser, daemon }) => {
      // Start from another language, so the switch is visible.
      const from = lang.code === 'en' ? LANGS[3] : LANGS[0];
      const context = await browser.newContext({ locale: from.accept });
      const page = await context.newPage();
      const question = await seed(daemon);
      await page.goto(`${daemon.url}/q/${question.id}`);
      await hydrated(page);
      await expect(page.locator('html')).toHaveAttribute('lang', from.code);
      await page.locator('#q0-text').fill('draft ✍');
      await page.evaluate(() => ((window as any).notReloaded = true));

      await page.getByTestId('header-language').selectOption(lang.code);
      await expect(page.locator('html')).toHaveAttribute('lang', lang.code);
      await expect(page.getByRole('button', { name: lang.sendAnswer })).toBeVisible();
      expect(await page.evaluate(() => (window as any).notReloaded)).toBe(true);
      await expect(page.locator('#q0-text')).toHaveValue('draft ✍');
      await expectNoEnglish(page, lang, 'the question page after switching');
      expect(await page.evaluate(() => localStorage.getItem('hark_lang'))).toBe(lang.code);

      await page.reload();
      await hydrated(page);
      await expect(page.locator('html')).toHaveAttribute('lang', lang.code);
      await expect(page.getByRole('button', { name: lang.sendAnswer })).toBeVisible();
      await expect(page.locator('#q0-text')).toHaveValue('draft ✍');
      await page.goto(daemon.url + '/settings');
      await expect(page.getByTestId('settings-language')).toHaveValue(lang.code);
      await context.close();
    });
  });
}

test('the question page in every language and both themes, saved for review', async ({ browser, daemon }) => {
  const question = await seed(daemon);
  for (const lang of LANGS) {
    for (const theme of ['light', 'dark'] as const) {
      const context = await browser.newContext({
        locale: lang.accept,
        viewport: { width: 820, height: 900 },
        reducedMotion: 'reduce',
      });
      await context.addCookies([{ name: 'hark_theme', value: theme, url: daemon.url }]);
      const page = await context.newPage();
      await page.goto(`${daemon.url}/q/${question.id}`);
      await hydrated(page);
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await page.screenshot({ path: `output/question-${lang.code}-${theme}.png`, fullPage: true });
      await context.close();
    }
  }
});

test('the theme picker switches at once and the pick survives a reload', async ({ page, daemon }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(daemon.url + '/');
  await hydrated(page);
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(await background()).toBe('rgb(246, 247, 249)');
  await page.getByTestId('header-theme').selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await background()).toBe('rgb(15, 17, 21)');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await background()).toBe('rgb(15, 17, 21)');
  // "System" follows the system again.
  await hydrated(page);
  await page.getByTestId('header-theme').selectOption('system');
  expect(await background()).toBe('rgb(246, 247, 249)');
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await background()).toBe('rgb(15, 17, 21)');
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('a dark pick paints dark from the first frame, and system follows the system', async ({ browser, daemon }) => {
    for (const [cookie, system, expected] of [
      ['dark', 'light', 'rgb(15, 17, 21)'],
      ['light', 'dark', 'rgb(246, 247, 249)'],
      [null, 'dark', 'rgb(15, 17, 21)'],
      [null, 'light', 'rgb(246, 247, 249)'],
    ] as const) {
      const context = await browser.newContext({ javaScriptEnabled: false, colorScheme: system });
      if (cookie) await context.addCookies([{ name: 'hark_theme', value: cookie, url: daemon.url }]);
      const page = await context.newPage();
      await page.goto(daemon.url + '/', { waitUntil: 'commit' });
      await page.waitForSelector('body');
      await expect(page.locator('body'), `${cookie} on a ${system} system`).toHaveCSS('background-color', expected);
      await context.close();
    }
  });

  test('the picker form switches language and theme through the server', async ({ page, daemon }) => {
    await page.goto(daemon.url + '/settings');
    await page.getByTestId('header-language').selectOption('ko');
    await page.getByTestId('header-theme').selectOption('dark');
    await page.locator('.prefs-header .prefs-apply').click();
    await expect(page).toHaveURL(daemon.url + '/settings');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ko');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(page.getByRole('heading', { name: '설정', exact: true })).toBeVisible();
  });
});

test.describe('refusals without JavaScript', () => {
  test.use({ javaScriptEnabled: false, locale: 'ko-KR' });

  test('a refused answer comes back to its page, explained in the language', async ({ page, daemon }) => {
    const question = await daemon.ask({ questions: [{ question: '?', options: [{ label: 'A' }, { label: 'B' }] }] });
    await page.goto(`${daemon.url}/q/${question.id}`);
    await fetch(`${daemon.url}/api/questions/${question.id}/cancel`, { method: 'POST' });
    await page.locator('#q0-o0').check();
    await page.getByRole('button', { name: '답 보내기' }).click();
    await expect(page).toHaveURL(new RegExp(`/q/${question.id}\\?`));
    await expect(page.getByText('이미 종료된 질문입니다.')).toBeVisible();
    expect((await daemon.question(question.id)).status).toBe('cancelled');
  });

  test('a refused setting comes back to settings, naming what is wrong', async ({ page, daemon }) => {
    await page.goto(daemon.url + '/settings');
    await page.locator('#port').fill('70000');
    await page.getByRole('button', { name: '설정 저장' }).click();
    await expect(page.getByText('포트는 1부터 65535까지의 정수여야 합니다.')).toBeVisible();
  });
});

test('a page fetches another language only on a switch, and stays in its own when it cannot', async ({ page, daemon }) => {
  const question = await seed(daemon);
  const fetched: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/fn/catalogue')) fetched.push(request.url());
  });
  await page.goto(`${daemon.url}/q/${question.id}`);
  await hydrated(page);
  expect(fetched, 'the page carries its own catalogue').toEqual([]);

  // The daemon out of reach: the page stays English and the picker says so.
  await page.route('**/fn/catalogue*', (route) => route.abort());
  const attempt = page.waitForRequest((request) => request.url().includes('/fn/catalogue'));
  await page.getByTestId('header-language').selectOption('ja');
  await attempt;
  await expect(page.getByTestId('header-language')).toHaveValue('en');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('button', { name: 'Send answer' })).toBeVisible();

  // Back in reach: the switch fetches Japanese once, and a switch back to English needs nothing.
  await page.unroute('**/fn/catalogue*');
  fetched.length = 0;
  await page.getByTestId('header-language').selectOption('ja');
  await expect(page.getByRole('button', { name: '回答を送信' })).toBeVisible();
  await page.getByTestId('header-language').selectOption('en');
  await expect(page.getByRole('button', { name: 'Send answer' })).toBeVisible();
  await page.getByTestId('header-language').selectOption('ja');
  await expect(page.getByRole('button', { name: '回答を送信' })).toBeVisible();
  expect(fetched.length, fetched.join(', ')).toBe(1);
});

test('the language picked last wins, even over an earlier pick still on its way', async ({ page, daemon }) => {
  const question = await seed(daemon);
  await page.goto(`${daemon.url}/q/${question.id}`);
  await hydrated(page);
  const release = await holdBack(page, '**/fn/catalogue*');
  const japanese = page.waitForResponse((response) => response.url().includes('/fn/catalogue'));
  const picker = page.getByTestId('header-language');
  await picker.selectOption('ja');
  // English is the page's own catalogue: it applies at once, while Japanese is still held.
  await picker.selectOption('en');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  release();
  await (await japanese).finished();
  // Let the page take the late catalogue in (a task after its body arrived; 300 ms is ample),
  // then check it changed nothing.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(picker).toHaveValue('en');
  await expect(page.getByRole('button', { name: 'Send answer' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('hark_lang'))).toBe('en');
});

test('a page that arrives without its catalogue fetches it, and never shows message ids', async ({ page, daemon }) => {
  // The page as it would be with its data block lost on the way: removed as the parser adds it.
  await page.addInitScript(() => {
    new MutationObserver(() => document.getElementById('hark-catalogues')?.remove()).observe(document, {
      childList: true,
      subtree: true,
    });
  });
  const warnings: string[] = [];
  page.on('console', (message) => warnings.push(message.text()));
  await page.goto(daemon.url + '/');
  await hydrated(page);
  expect(warnings).toContain('the page carried no readable catalogues');
  // A card drawn in the browser after the page loaded still reads in English.
  await daemon.ask({ questions: [{ question: 'Still in words?' }] });
  await expect(page.getByText('Still in words?')).toBeVisible();
  await expect(page.locator('main')).toContainText('just now');
  await expect(page.locator('body')).not.toContainText('age-just-now');
});
