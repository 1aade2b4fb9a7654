// The first answering flow: a question POSTed to the API shows up live, is answered by clicking,
// and the API reports the answer — with and without JavaScript.
import { test, expect, hydrated } from './daemon';

const deploy = {
  questions: [
    {
      question: 'Deploy the release now?',
      header: 'Deploy',
      options: [
        { label: 'Yes, deploy', recommended: true },
        { label: 'Wait until Monday', description: 'Nobody is on call this weekend' },
        { label: 'Roll back', danger: true },
      ],
    },
  ],
};

test('a question appears live, is answered by clicking, and the API shows it answered', async ({ page, daemon }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto(daemon.url + '/');
  await hydrated(page);
  await expect(page.locator('[data-connection="live"]')).toBeVisible();
  await expect(page.getByText('All caught up')).toBeVisible();

  const question = await daemon.ask(deploy);
  const card = page.locator(`[data-question-id="${question.id}"]`);
  await expect(card).toContainText('Deploy the release now?');
  await expect(page.getByTestId('pending-count')).toHaveText('1 waiting');

  await card.getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/q/${question.id}$`));
  await expect(page.getByText('Nobody is on call this weekend')).toBeVisible();
  await expect(page.getByText('Recommended')).toBeVisible();
  await page.getByLabel('Wait until Monday').check();
  await page.getByLabel('Other (type your own answer)').fill('and tell the team');
  await page.getByRole('button', { name: 'Send answer' }).click();

  // No other question waits, so the inbox opens and shows it in the history.
  await expect(page).toHaveURL(daemon.url + '/');
  await expect(page.getByTestId('history-list')).toContainText('Wait until Monday, and tell the team');
  const answered = await daemon.question(question.id);
  expect(answered.status).toBe('answered');
  expect(answered.answers).toEqual([{ selected: ['Wait until Monday'], freeText: 'and tell the team' }]);
  expect(errors).toEqual([]);
});

test('answering opens the next pending question', async ({ page, daemon }) => {
  const first = await daemon.ask(deploy);
  const second = await daemon.ask({
    questions: [
      { question: 'Which regions?', multiSelect: true, allowFreeText: false, options: [{ label: 'EU' }, { label: 'US' }, { label: 'Asia' }] },
      { question: 'Anything to add?' },
    ],
  });
  await page.goto(`${daemon.url}/q/${first.id}`);
  await hydrated(page);
  await page.getByLabel('Yes, deploy').check();
  await page.getByRole('button', { name: 'Send answer' }).click();
  await expect(page).toHaveURL(`${daemon.url}/q/${second.id}`);
  await page.getByLabel('EU').check();
  await page.getByLabel('Asia').check();
  await page.getByRole('textbox').fill('ship it 🚀');
  await page.getByRole('button', { name: 'Send answer' }).click();
  await expect(page).toHaveURL(daemon.url + '/');
  const answered = await daemon.question(second.id);
  expect(answered.answers).toEqual([{ selected: ['EU', 'Asia'] }, { selected: [], freeText: 'ship it 🚀' }]);
});

test('a question closed elsewhere locks the open page', async ({ page, daemon }) => {
  const question = await daemon.ask(deploy);
  await page.goto(`${daemon.url}/q/${question.id}`);
  await hydrated(page);
  await expect(page.locator('[data-connection="live"]')).toBeVisible();
  await fetch(`${daemon.url}/api/questions/${question.id}/cancel`, { method: 'POST' });
  await expect(page.getByTestId('closed-banner')).toContainText('The agent withdrew this question.');
  await expect(page.getByRole('button', { name: 'Send answer' })).toBeDisabled();
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the same answer works as a plain form post', async ({ page, daemon }) => {
    const question = await daemon.ask(deploy);
    await page.goto(daemon.url + '/');
    await page.locator(`[data-question-id="${question.id}"]`).getByRole('link').click();
    await page.getByLabel('Wait until Monday').check();
    await page.getByLabel('Other (type your own answer)').fill('no JS needed');
    await page.getByRole('button', { name: 'Send answer' }).click();
    await expect(page).toHaveURL(daemon.url + '/');
    await expect(page.getByTestId('history-list')).toContainText('Wait until Monday, no JS needed');
    const answered = await daemon.question(question.id);
    expect(answered.status).toBe('answered');
    expect(answered.answers).toEqual([{ selected: ['Wait until Monday'], freeText: 'no JS needed' }]);
  });
});

test('a question whose agent stopped waiting says so, live, and can still be answered', async ({ page, daemon }) => {
  const question = await daemon.ask(deploy);
  await page.goto(`${daemon.url}/q/${question.id}`);
  await hydrated(page);
  await expect(page.getByTestId('abandoned-banner')).toHaveCount(0);
  // The agent's call is cancelled: the open page learns it without a reload.
  const abandoned = await fetch(`${daemon.url}/api/questions/${question.id}/abandon`, { method: 'POST' });
  expect(abandoned.status).toBe(200);
  await expect(page.getByTestId('abandoned-banner')).toContainText('The agent stopped waiting');
  await page.getByText('Wait until Monday').click();
  await page.getByRole('button', { name: 'Send answer' }).click();
  await expect.poll(async () => (await daemon.question(question.id)).status).toBe('answered');
});

test("an option's preview shows beside the options, and under the option on a phone", async ({ page, daemon }) => {
  const question = await daemon.ask({
    questions: [
      {
        question: 'Which fix?',
        options: [
          { label: 'Patch it', preview: '```diff\n- old line\n+ new line\n```' },
          { label: 'Rewrite it', preview: 'A **new** module <script>alert(1)</script>' },
        ],
      },
    ],
  });
  await page.setViewportSize({ width: 1200, height: 800 });
  await page.goto(`${daemon.url}/q/${question.id}`);
  await hydrated(page);
  const patch = page.locator('[data-preview="0"]');
  const rewrite = page.locator('[data-preview="1"]');
  await expect(patch).toBeHidden();
  await page.locator('label[data-option="0"]').click();
  await expect(patch).toBeVisible();
  await expect(patch).toContainText('+ new line');
  const option = (await page.locator('label[data-option="0"]').boundingBox())!;
  const beside = (await patch.boundingBox())!;
  expect(beside.x).toBeGreaterThanOrEqual(option.x + option.width - 1);
  await page.locator('label[data-option="1"]').hover();
  await expect(rewrite).toBeVisible();
  await expect(rewrite).toContainText('<script>alert(1)</script>');
  expect(await rewrite.locator('strong').textContent()).toBe('new');
  // On a phone the picked option's preview sits under it.
  await page.mouse.move(0, 0);
  await page.setViewportSize({ width: 390, height: 800 });
  const narrow = (await page.locator('label[data-option="0"]').boundingBox())!;
  const under = (await patch.boundingBox())!;
  expect(under.y).toBeGreaterThanOrEqual(narrow.y + narrow.height - 1);
});
