// The answering experience: Markdown rendered safely, keyboard answering, drafts that survive a
// reload, and skipping with a note.
import { test, expect, hydrated } from './daemon';

test('every text field stays inert against XSS, and Markdown links are safe', async ({ page, daemon }) => {
  const dialogs: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  const payload = '<img src=x onerror="window.__xss=1;alert(1)"><script>window.__xss=2;alert(2)</script>';
  const question = await daemon.ask({
    title: `**Bold title** [docs](https://example.com/docs) [evil](javascript:alert(3)) ${payload}`,
    source: { client: payload, cwd: payload },
    questions: [
      {
        question: `Pick one ${payload}`,
        header: payload,
        options: [
          { label: `A ${payload}`, description: payload },
          { label: 'B' },
        ],
      },
    ],
  });
  for (const path of ['/', `/q/${question.id}`]) {
    await page.goto(daemon.url + path);
    await hydrated(page);
    await expect(page.locator('body')).toContainText('<script>window.__xss=2');
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await page.evaluate(() => (window as any).__xss)).toBeUndefined();
  }
  await expect(page.locator('.title strong')).toHaveText('Bold title');
  const docs = page.getByRole('link', { name: 'docs' });
  await expect(docs).toHaveAttribute('href', 'https://example.com/docs');
  await expect(docs).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(docs).toHaveAttribute('target', '_blank');
  expect(await page.locator('a[href^="javascript"]').count()).toBe(0);
  expect(dialogs).toEqual([]);
});

test('a four-question set can be answered with the keyboard alone', async ({ page, daemon }) => {
  const question = await daemon.ask({
    questions: [
      { question: 'First?', options: [{ label: 'A' }, { label: 'B' }] },
      { question: 'Which parts?', multiSelect: true, allowFreeText: false, options: [{ label: 'X' }, { label: 'Y' }, { label: 'Z' }] },
      { question: 'Anything to add?' },
      { question: 'Last?', options: [{ label: 'P' }, { label: 'Q' }] },
    ],
  });
  await page.goto(`${daemon.url}/q/${question.id}`);
  await hydrated(page);
  await page.locator('#q0-o0').focus();
  await page.keyboard.press('2');
  await expect(page.locator('#q0-o1')).toBeChecked();
  await page.keyboard.press('Tab'); // the "Other" box of the first question
  await page.keyboard.press('Tab'); // its "Add image" button
  await page.keyboard.press('Tab'); // the first checkbox of the second question
  await page.keyboard.press('1');
  await page.keyboard.press('3');
  await expect(page.locator('#q1-o0')).toBeChecked();
  await expect(page.locator('#q1-o2')).toBeChecked();
  await page.keyboard.press('Tab'); // the "Other" box of the third question
  await page.keyboard.type('typed with keys');
  await page.keyboard.press('Tab'); // its "Add image" button
  await page.keyboard.press('Tab'); // the last question's radio group
  await page.keyboard.press('2');
  await expect(page.locator('#q3-o1')).toBeChecked();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(daemon.url + '/');
  const answered = await daemon.question(question.id);
  expect(answered.answers).toEqual([
    { selected: ['B'] },
    { selected: ['X', 'Z'] },
    { selected: [], freeText: 'typed with keys' },
    { selected: ['Q'] },
  ]);
});

test('Ctrl+Enter sends from a text box and Esc goes back', async ({ page, daemon }) => {
  const first = await daemon.ask({ questions: [{ question: 'Say something' }] });
  await page.goto(`${daemon.url}/q/${first.id}`);
  await hydrated(page);
  await page.getByRole('textbox').first().fill('sent with ctrl+enter');
  await page.keyboard.press('Control+Enter');
  await expect(page).toHaveURL(daemon.url + '/');
  expect((await daemon.question(first.id)).answers).toEqual([{ selected: [], freeText: 'sent with ctrl+enter' }]);

  const second = await daemon.ask({ questions: [{ question: 'Another?', options: [{ label: 'Yes' }] }] });
  await page.goto(`${daemon.url}/q/${second.id}`);
  await hydrated(page);
  await page.locator('#q0-o0').focus();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(daemon.url + '/');
});

test('a draft survives a reload', async ({ page, daemon }) => {
  const question = await daemon.ask({
    questions: [
      { question: 'Colour?', options: [{ label: 'Red' }, { label: 'Blue' }] },
      { question: 'Sizes?', multiSelect: true, options: [{ label: 'S' }, { label: 'M' }, { label: 'L' }] },
    ],
  });
  await page.goto(`${daemon.url}/q/${question.id}`);
  await hydrated(page);
  await page.locator('#q0-o1').check(); // Blue
  await page.locator('#q1-o1').check(); // M
  await page.locator('#q1-o2').check(); // L
  await page.locator('#q1-text').fill('half a draft');
  await page.reload();
  await hydrated(page);
  await expect(page.locator('#q0-o1')).toBeChecked();
  await expect(page.locator('#q0-o0')).not.toBeChecked();
  await expect(page.locator('#q1-o1')).toBeChecked();
  await expect(page.locator('#q1-o2')).toBeChecked();
  await expect(page.locator('#q1-text')).toHaveValue('half a draft');
  await page.getByRole('button', { name: 'Send answer' }).click();
  await expect(page).toHaveURL(daemon.url + '/');
  expect((await daemon.question(question.id)).answers).toEqual([
    { selected: ['Blue'] },
    { selected: ['M', 'L'], freeText: 'half a draft' },
  ]);
  const leftover = await page.evaluate((id) => localStorage.getItem(`hark.draft.${id}`), question.id);
  expect(leftover).toBeNull();
});

test('skipping a question declines it with the note', async ({ page, daemon }) => {
  const question = await daemon.ask({ questions: [{ question: 'Rename the project?', options: [{ label: 'Yes' }] }] });
  await page.goto(`${daemon.url}/q/${question.id}`);
  await hydrated(page);
  await page.getByText('Skip this question…').click();
  await page.getByLabel('Why are you skipping it?').fill('ask me after the release');
  await page.getByRole('button', { name: 'Skip', exact: true }).click();
  await expect(page).toHaveURL(daemon.url + '/');
  const declined = await daemon.question(question.id);
  expect(declined.status).toBe('declined');
  expect(declined.note).toBe('ask me after the release');
});

test('a JSON title is shown as YAML, with the raw text a click away', async ({ page, daemon }) => {
  const question = await daemon.ask({
    title: JSON.stringify({ service: 'api', replicas: 3, ports: [80, 443] }),
    questions: [{ question: 'Apply this?', options: [{ label: 'Yes' }] }],
  });
  await page.goto(`${daemon.url}/q/${question.id}`);
  await hydrated(page);
  await expect(page.locator('.title pre.yaml')).toHaveText('service: api\nreplicas: 3\nports:\n  - 80\n  - 443');
  const raw = page.locator('.title details.raw pre');
  await expect(raw).toBeHidden();
  await page.getByText('Show the original JSON').click();
  await expect(raw).toHaveText('{"service":"api","replicas":3,"ports":[80,443]}');
});

test('answered on another device, the open page locks with a banner', async ({ browser, daemon }) => {
  const question = await daemon.ask({ questions: [{ question: 'Who answers first?', options: [{ label: 'Laptop' }, { label: 'Phone' }] }] });
  const laptop = await browser.newPage();
  const phone = await browser.newPage();
  for (const page of [laptop, phone]) {
    await page.goto(`${daemon.url}/q/${question.id}`);
    await hydrated(page);
    await expect(page.locator('[data-connection="live"]')).toBeVisible();
  }
  await phone.locator('#q0-o1').check();
  await phone.getByRole('button', { name: 'Send answer' }).click();
  await expect(phone).toHaveURL(daemon.url + '/');
  await expect(laptop.getByTestId('closed-banner')).toContainText('This question has been answered.');
  await expect(laptop.getByTestId('closed-banner')).toContainText('Phone');
  await expect(laptop.getByRole('button', { name: 'Send answer' })).toBeDisabled();
  await expect(laptop.locator('#q0-o0')).toBeDisabled();
});

test('animations follow prefers-reduced-motion', async ({ page, daemon }) => {
  await daemon.ask({ questions: [{ question: 'Animated?' }] });
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await page.goto(daemon.url + '/');
  await hydrated(page);
  const animation = () => page.locator('.card').first().evaluate((card) => getComputedStyle(card).animationName);
  expect(await animation()).toBe('rise');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await animation()).toBe('none');
});
