// Typing keeps a question open (SPEC §18) in a real Chromium: a question with a 3-second limit
// shows its deadline, and while the person types an answer on its page the limit waits (the
// page tells the daemon over its event stream); the deadline shown moves with it, and the
// answer sent well past the first limit still counts.

import { test, expect, hydrated } from './daemon';

test('typing in a question page keeps its time limit waiting and shows the new deadline', async ({ page, daemon }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const question = await daemon.ask({ questions: [{ question: 'Why did the build fail?' }], timeoutSecs: 3 });
  await page.goto(`${daemon.url}/q/${question.id}`);
  await hydrated(page);
  await expect(page.locator('[data-connection="live"]')).toBeVisible();
  await expect(page.getByTestId('deadline')).toHaveText('Times out in less than a minute');

  const answer = page.getByRole('textbox');
  await answer.fill('The cache');
  await expect(page.getByTestId('deadline')).toHaveText('Times out in 1 minute');
  // Past the first limit, still typing: still open.
  await page.waitForTimeout(3_500);
  await answer.pressSequentially(' was stale');
  expect((await daemon.question(question.id)).status).toBe('pending');
  await page.getByRole('button', { name: 'Send answer' }).click();
  await expect.poll(async () => (await daemon.question(question.id)).status).toBe('answered');
  expect((await daemon.question(question.id)).answers[0].freeText).toBe('The cache was stale');
  expect(errors).toEqual([]);
});

test('a question nobody types in still ends at its limit', async ({ page, daemon }) => {
  const question = await daemon.ask({ questions: [{ question: 'Anyone there?' }], timeoutSecs: 2 });
  await page.goto(`${daemon.url}/q/${question.id}`);
  await hydrated(page);
  await expect(page.getByTestId('closed-banner')).toBeVisible({ timeout: 10_000 });
  await expect(page.getByTestId('deadline')).toHaveCount(0);
  expect((await daemon.question(question.id)).status).toBe('timeout');
});
