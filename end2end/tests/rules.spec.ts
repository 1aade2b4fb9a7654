// Remembered decisions in settings: every rule kept ("Always allow" / "Always deny") is listed
// with what it answers, and taken back with a button, with and without JavaScript.
import { test, expect, hydrated } from './daemon';

const keep = (url: string, rule: object) =>
  fetch(`${url}/api/rules`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(rule),
  }).then((r) => r.json());
const rules = (url: string) => fetch(`${url}/api/rules`).then((r) => r.json()).then((r) => r.rules);

test('remembered decisions are listed in settings and taken back', async ({ page, daemon }) => {
  await page.goto(daemon.url + '/settings');
  await hydrated(page);
  const section = page.locator('section', { has: page.getByRole('heading', { name: 'Remembered decisions' }) });
  await expect(section.getByTestId('no-rules')).toHaveText('No decisions remembered yet.');

  await keep(daemon.url, { agent: 'codex', tool: 'Bash', pattern: 'cargo test', decision: 'allow' });
  await keep(daemon.url, { agent: 'gemini-cli', tool: 'run_shell_command', pattern: 'git push *', decision: 'deny' });
  await page.reload();
  await hydrated(page);
  const listed = section.getByTestId('rule');
  await expect(listed).toHaveCount(2);
  await expect(listed.nth(0)).toContainText('Always allowed');
  await expect(listed.nth(0)).toContainText('codex: Bash');
  await expect(listed.nth(0).locator('code')).toHaveText('cargo test');
  await expect(listed.nth(1)).toContainText('Always denied');
  await expect(listed.nth(1).locator('code')).toHaveText('git push *');

  await listed.nth(0).getByRole('button', { name: 'Take back' }).click();
  await expect(listed).toHaveCount(1);
  await expect(listed.nth(0).locator('code')).toHaveText('git push *');
  expect((await rules(daemon.url)).map((rule: any) => rule.pattern)).toEqual(['git push *']);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a remembered decision is taken back as a plain form', async ({ page, daemon }) => {
    await keep(daemon.url, { agent: 'cursor', tool: 'Shell', pattern: 'npm run *', decision: 'allow' });
    await page.goto(daemon.url + '/settings');
    await page.getByTestId('rule').getByRole('button', { name: 'Take back' }).click();
    await expect(page).toHaveURL(/\/settings/);
    await expect(page.getByTestId('no-rules')).toBeVisible();
    expect(await rules(daemon.url)).toEqual([]);
  });
});
