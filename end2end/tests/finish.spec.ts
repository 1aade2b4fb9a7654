// The finish of the page (issue 16): keys work the moment a question opens, the send button
// keeps its height at every narrow width with or without touch, and the inbox shows what a
// titled question asks.
import { test, expect, hydrated } from './daemon';

test('1 and Enter answer as soon as the question page is open, without a click first', async ({ page, daemon }) => {
  const question = await daemon.ask({
    questions: [{ question: 'Ship it?', options: [{ label: 'Yes' }, { label: 'No' }] }],
  });
  await page.goto(`${daemon.url}/q/${question.id}`);
  await hydrated(page);
  // Nothing has the focus: the keys go to the page itself.
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('BODY');
  await page.keyboard.press('2');
  await expect(page.locator('#q0-o1')).toBeChecked();
  await page.keyboard.press('1');
  await expect(page.locator('#q0-o0')).toBeChecked();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(daemon.url + '/');
  expect((await daemon.question(question.id)).answers).toEqual([{ selected: ['Yes'] }]);
});

test('digits typed in a text box stay text', async ({ page, daemon }) => {
  const question = await daemon.ask({
    questions: [{ question: 'Which port?', options: [{ label: '80' }, { label: '443' }] }],
  });
  await page.goto(`${daemon.url}/q/${question.id}`);
  await hydrated(page);
  const other = page.locator('textarea, input[type="text"]').first();
  await other.click();
  await page.keyboard.type('8080');
  await expect(other).toHaveValue('8080');
  await expect(page.locator('#q0-o0')).not.toBeChecked();
  await expect(page.locator('#q0-o1')).not.toBeChecked();
});

for (const hasTouch of [false, true]) {
  for (const width of [320, 360, 390, 400]) {
    test(`the send button keeps its height at ${width} px ${hasTouch ? 'with' : 'without'} touch`, async ({ browser, daemon }) => {
      const question = await daemon.ask({
        questions: [{ question: 'Deploy?', options: [{ label: 'Yes' }, { label: 'No' }] }],
      });
      const context = await browser.newContext({ viewport: { width, height: 800 }, hasTouch });
      const page = await context.newPage();
      await page.goto(`${daemon.url}/q/${question.id}`);
      await hydrated(page);
      const button = page.locator('.actions button.primary');
      const box = (await button.boundingBox())!;
      expect(box.height).toBeLessThanOrEqual(64);
      expect(box.height).toBeGreaterThanOrEqual(44);
      // Full width on a phone-sized window, and the hint (when shown) on its own line.
      expect(box.width).toBeGreaterThan(width * 0.7);
      const hint = page.locator('.actions .hint');
      if (await hint.isVisible()) {
        const hintBox = (await hint.boundingBox())!;
        expect(hintBox.y + hintBox.height).toBeLessThanOrEqual(box.y + 1);
      }
      await context.close();
    });
  }
}

test('the inbox shows the first question under a title', async ({ page, daemon }) => {
  await daemon.ask({
    title: 'Release **v2**',
    questions: [{ question: 'Ship it on *Friday*, after the backup?' }, { question: 'Tell the team?' }],
  });
  await daemon.ask({ questions: [{ question: 'No title here?' }] });
  await page.goto(daemon.url + '/');
  await hydrated(page);
  const titled = page.locator('.card.pending', { hasText: 'Release v2' });
  await expect(titled.getByTestId('first-question')).toHaveText('Ship it on Friday, after the backup?');
  const untitled = page.locator('.card.pending', { hasText: 'No title here?' });
  await expect(untitled.getByTestId('first-question')).toHaveCount(0);
});

test('quick replies are managed in settings and inserted by a tap or Alt+digit', async ({ page, daemon }) => {
  await page.goto(daemon.url + '/settings');
  await hydrated(page);
  const field = page.getByRole('textbox', { name: 'Quick replies' });
  await field.fill('Looks good, go ahead.\n\n  Not now, ask me after lunch.  \nShip it');
  await page.getByRole('button', { name: 'Save quick replies' }).click();
  await expect(page.getByTestId('presets-field')).toHaveValue('Looks good, go ahead.\nNot now, ask me after lunch.\nShip it');
  expect((await fetch(`${daemon.url}/api/config`).then((r) => r.json())).presets).toEqual([
    'Looks good, go ahead.',
    'Not now, ask me after lunch.',
    'Ship it',
  ]);
  // Reordered and one deleted, by editing lines.
  await page.getByTestId('presets-field').fill('Ship it\nLooks good, go ahead.');
  await page.getByRole('button', { name: 'Save quick replies' }).click();
  await expect.poll(async () => (await fetch(`${daemon.url}/api/config`).then((r) => r.json())).presets).toEqual([
    'Ship it',
    'Looks good, go ahead.',
  ]);
  // Too long: refused by name, nothing changes.
  await page.getByTestId('presets-field').fill('x'.repeat(501));
  await page.getByRole('button', { name: 'Save quick replies' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Quick replies: at most 50' })).toBeVisible();

  const question = await daemon.ask({
    questions: [{ question: 'Anything to add?' }, { question: 'And here?', options: [{ label: 'Fine' }] }],
  });
  await page.goto(`${daemon.url}/q/${question.id}`);
  await hydrated(page);
  const first = page.locator('#q0-text, fieldset[data-index="0"] textarea').first();
  const buttons = page.locator('fieldset[data-index="0"]').getByTestId('preset');
  await expect(buttons).toHaveText(['Ship it', 'Looks good, go ahead.']);
  await first.fill('Sure');
  await buttons.nth(1).click();
  await expect(first).toHaveValue('Sure Looks good, go ahead.');
  // Alt+1 in the second question's text box.
  const second = page.locator('fieldset[data-index="1"] textarea');
  await second.click();
  await page.keyboard.press('Alt+1');
  await expect(second).toHaveValue('Ship it');
  await expect(page.locator('#q1-o0')).not.toBeChecked();
  await page.getByRole('button', { name: 'Send answer' }).click();
  await expect(page).toHaveURL(daemon.url + '/');
  expect((await daemon.question(question.id)).answers).toEqual([
    { selected: [], freeText: 'Sure Looks good, go ahead.' },
    { selected: [], freeText: 'Ship it' },
  ]);
});
