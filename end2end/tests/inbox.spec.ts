// The inbox: grouped by who asked, live relative ages, a filterable and searchable history;
// inline validation; fit at 320 px; and an accessibility scan.
import AxeBuilder from '@axe-core/playwright';
import { test, expect, hydrated, type Daemon } from './daemon';
import { readFileSync } from 'node:fs';

test('pending questions are grouped by agent and project, with live ages', async ({ page, daemon }) => {
  await page.clock.install();
  await daemon.ask({ source: { client: 'claude-code 2.1', cwd: '/home/ana/shop' }, questions: [{ question: 'Shop one?' }] });
  await daemon.ask({ source: { client: 'cursor 1.9', cwd: '/home/ana/api' }, questions: [{ question: 'Api one?' }] });
  await daemon.ask({ source: { client: 'claude-code 2.1', cwd: '/home/ana/shop' }, questions: [{ question: 'Shop two?' }] });
  await page.goto(daemon.url + '/');
  await hydrated(page);
  const groups = page.locator('.group');
  await expect(groups).toHaveCount(2);
  await expect(groups.nth(0).locator('.group-title')).toHaveText('claude-code 2.1 · shop');
  await expect(groups.nth(0).locator('.headline')).toHaveText(['Shop one?', 'Shop two?']);
  await expect(groups.nth(1).locator('.group-title')).toHaveText('cursor 1.9 · api');
  await expect(groups.nth(0).locator('time').first()).toHaveText('just now');
  await page.clock.fastForward('03:10');
  await expect(groups.nth(0).locator('time').first()).toHaveText('3 min ago');
});

test('the history filters by status and searches questions and answers', async ({ page, daemon }) => {
  const answered = await daemon.ask({ questions: [{ question: 'Pick a database', options: [{ label: 'Postgres' }, { label: 'SQLite' }] }] });
  const skipped = await daemon.ask({ questions: [{ question: 'Rename the repo?' }] });
  await fetch(`${daemon.url}/api/questions/${answered.id}/answer`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ answers: [{ selected: ['SQLite'] }] }),
  });
  await fetch(`${daemon.url}/api/questions/${skipped.id}/decline`, { method: 'POST' });
  await page.goto(daemon.url + '/');
  await hydrated(page);
  const history = page.getByTestId('history-list');
  await expect(history.locator('.card')).toHaveCount(2);
  await page.getByLabel('Show').selectOption('declined');
  await expect(history.locator('.card')).toHaveCount(1);
  await expect(history).toContainText('Rename the repo?');
  await expect(history.locator('.chip')).toHaveText('Skipped');
  await page.getByLabel('Show').selectOption('');
  await page.getByLabel('Search the history').fill('sqlite');
  await expect(history.locator('.card')).toHaveCount(1);
  await expect(history).toContainText('Pick a database');
  await page.getByLabel('Search the history').fill('no such words');
  await expect(history).toContainText('Nothing in the history matches.');
  // A question closed meanwhile joins the history under the same search.
  await page.getByLabel('Search the history').fill('sqlite');
  const another = await daemon.ask({ questions: [{ question: 'Use SQLite for tests too?' }] });
  await fetch(`${daemon.url}/api/questions/${another.id}/cancel`, { method: 'POST' });
  await expect(history.locator('.card')).toHaveCount(2);
  await expect(history.locator('.card').first()).toContainText('Use SQLite for tests too?');
  await expect(page.getByLabel('Search the history')).toHaveValue('sqlite');
});

test('sending with a question unanswered shows a message there and sends nothing', async ({ page, daemon }) => {
  const question = await daemon.ask({
    questions: [
      { question: 'One?', options: [{ label: 'A' }] },
      { question: 'Two?', options: [{ label: 'B' }] },
    ],
  });
  await page.goto(`${daemon.url}/q/${question.id}`);
  await hydrated(page);
  await page.locator('#q0-o0').check();
  await page.getByRole('button', { name: 'Send answer' }).click();
  const second = page.locator('fieldset.sub-question').nth(1);
  await expect(second.getByRole('alert')).toHaveText('Pick an option or write an answer.');
  await expect(second).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('fieldset.sub-question').nth(0).getByRole('alert')).toHaveText('');
  expect((await daemon.question(question.id)).status).toBe('pending');
  await page.locator('#q1-o0').check();
  await expect(second.getByRole('alert')).toHaveText('');
  await page.getByRole('button', { name: 'Send answer' }).click();
  await expect(page).toHaveURL(daemon.url + '/');
  expect((await daemon.question(question.id)).status).toBe('answered');
});

test.describe('at 320 px', () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test('nothing scrolls sideways and targets are large enough', async ({ page, daemon }) => {
    const question = await daemon.ask({
      title: 'A long title with a_very_long_unbroken_identifier_that_could_overflow_the_page_width',
      source: { client: 'claude-code 2.1', cwd: '/home/somebody/projects/with/a/deep/path' },
      questions: [{ question: 'Pick one', header: 'Header', options: [{ label: 'First choice', description: 'with a description', recommended: true }, { label: 'Second' }] }],
    });
    for (const path of ['/', `/q/${question.id}`]) {
      await page.goto(daemon.url + path);
      await hydrated(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
    for (const target of [page.locator('label.option').first(), page.getByRole('button', { name: 'Send answer' })]) {
      const box = await target.boundingBox();
      expect(box!.height).toBeGreaterThanOrEqual(44);
    }
    await page.screenshot({ path: 'test-results/question-320px.png', fullPage: true });
  });
});

test('no serious or critical accessibility findings', async ({ page, daemon }) => {
  const question = await daemon.ask({
    title: 'Release **2.3**',
    source: { client: 'claude-code 2.1', cwd: '/home/ana/shop' },
    questions: [
      { question: 'Deploy?', header: 'Deploy', options: [{ label: 'Yes', recommended: true }, { label: 'Roll back', danger: true, description: 'Reverts 2.2' }] },
      { question: 'Regions?', multiSelect: true, options: [{ label: 'EU' }, { label: 'US' }] },
    ],
  });
  const done = await daemon.ask({ questions: [{ question: 'Old one?' }] });
  await fetch(`${daemon.url}/api/questions/${done.id}/cancel`, { method: 'POST' });
  for (const scheme of ['light', 'dark'] as const) {
    // Reduced motion: the scan measures the settled page, not a card fading in.
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    for (const path of ['/', `/q/${question.id}`]) {
      await page.goto(daemon.url + path);
      await hydrated(page);
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${scheme} ${path}: ${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
    }
  }
});

/** Asks `count` questions, "Old question 0?" first, and answers each "Yes". */
async function answeredQuestions(daemon: Daemon, count: number) {
  for (let index = 0; index < count; index++) {
    const question = await daemon.ask({ questions: [{ question: `Old question ${index}?`, options: [{ label: 'Yes' }] }] });
    await fetch(`${daemon.url}/api/questions/${question.id}/answer`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ answers: [{ selected: ['Yes'] }] }),
    });
  }
}

test('the history arrives a page at a time, and older pages load on request', async ({ page, daemon }) => {
  await answeredQuestions(daemon, 62);
  await page.goto(daemon.url + '/');
  await hydrated(page);
  const history = page.getByTestId('history-list');
  await expect(history.locator('.card')).toHaveCount(50);
  await expect(history.locator('.card').first()).toContainText('Old question 61?');
  await page.getByTestId('history-older').click();
  await expect(history.locator('.card')).toHaveCount(62);
  await expect(history.locator('.card').last()).toContainText('Old question 0?');
  await expect(page.getByTestId('history-older')).toHaveCount(0);

  // The whole history downloads as Markdown.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Markdown' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^hark-\d{4}-\d{2}-\d{2}\.md$/);
  const markdown = readFileSync(await download.path(), 'utf8');
  expect(markdown).toContain('## Old question 0?');
  expect(markdown).toContain('- [x] Yes');
});

test('older pages of the history stay across a language switch, written again in the new language', async ({ page, daemon }) => {
  // 120 closed questions: the newest page of 50, then two older pages (50 and 20).
  await answeredQuestions(daemon, 120);
  await page.goto(daemon.url + '/');
  await hydrated(page);
  const history = page.getByTestId('history-list');
  const cards = history.locator('.card');
  await expect(cards).toHaveCount(50);
  await page.getByTestId('history-older').click();
  await expect(cards).toHaveCount(100);
  await page.getByTestId('history-older').click();
  await expect(cards).toHaveCount(120);
  await expect(page.getByTestId('history-older')).toHaveCount(0);
  await expect(cards.last()).toContainText('Answered');

  await page.getByTestId('header-language').selectOption('zh-CN');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  // Every card the person had opened is still there, the oldest now in Chinese too.
  await expect(cards.last()).toContainText('已回答');
  await expect(cards).toHaveCount(120);
  await expect(cards.first()).toContainText('Old question 119?');
  await expect(cards.last()).toContainText('Old question 0?');
  await expect(history.locator('.card', { hasText: 'Answered' })).toHaveCount(0);
  await expect(page.getByTestId('history-older')).toHaveCount(0);
  // The search still finds among them.
  await page.getByRole('searchbox').fill('question 7?');
  await expect(cards).toHaveCount(1);
  await expect(cards).toContainText('Old question 7?');
});
