// Screenshots of the main states at desktop and phone width, light and dark, saved under
// end2end/output/ for a person to look at. The assertions only check each state rendered.
import { test, expect, hydrated } from './daemon';

for (const [name, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`main states, ${name}, ${colorScheme}`, async ({ page, daemon }) => {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
      const shot = (state: string) =>
        page.screenshot({ path: `output/${state}-${name}-${colorScheme}.png`, fullPage: true });

      await page.goto(daemon.url + '/');
      await hydrated(page);
      await expect(page.getByText('All caught up')).toBeVisible();
      await shot('inbox-empty');

      const release = await daemon.ask({
        title: 'Release **2.3** is ready: CI is green and the changelog is written.',
        source: { client: 'claude-code 2.1', cwd: '/home/ana/shop' },
        questions: [
          {
            question: 'Deploy the release now?',
            header: 'Deploy',
            options: [
              { label: 'Yes, deploy now', recommended: true, description: 'Traffic is low for the next hour' },
              { label: 'Wait until Monday', description: 'Nobody is on call this weekend' },
              { label: 'Roll back 2.2', danger: true, description: 'Reverts the database migration' },
            ],
          },
          { question: 'Which regions?', multiSelect: true, allowFreeText: false, options: [{ label: 'EU' }, { label: 'US' }, { label: 'Asia' }] },
        ],
      });
      await daemon.ask({ source: { client: 'cursor 1.9', cwd: '/home/ana/api' }, questions: [{ question: 'Name the new table?' }] });
      const old = await daemon.ask({ questions: [{ question: 'Use Postgres?', options: [{ label: 'Yes' }, { label: 'No' }] }] });
      await fetch(`${daemon.url}/api/questions/${old.id}/answer`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ answers: [{ selected: ['Yes'], freeText: 'version 16' }] }),
      });
      await expect(page.locator('.group')).toHaveCount(2);
      await expect(page.getByTestId('history-list')).toContainText('Yes, version 16');
      await shot('inbox');

      await page.goto(`${daemon.url}/q/${release.id}`);
      await hydrated(page);
      await page.locator('#q0-o1').check();
      await shot('question');
      await page.getByRole('button', { name: 'Send answer' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Pick an option' })).toBeVisible();
      await shot('question-invalid');

      await fetch(`${daemon.url}/api/questions/${release.id}/cancel`, { method: 'POST' });
      await expect(page.getByTestId('closed-banner')).toBeVisible();
      await shot('question-closed');

      await page.goto(daemon.url + '/settings');
      await hydrated(page);
      await shot('settings');
    });
  }
}
