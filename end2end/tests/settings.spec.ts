// The settings panel: saves through a server function, names what is wrong, and applies live
// to every open page.
import { test, expect, hydrated } from './daemon';

const config = (url: string) => fetch(`${url}/api/config`).then((r) => r.json());

test('settings are saved, validated and applied live to other pages', async ({ page, context, daemon }) => {
  const other = await context.newPage();
  await other.goto(daemon.url + '/settings');
  await hydrated(other);
  await page.goto(daemon.url + '/');
  await hydrated(page);
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(daemon.url + '/settings');
  await expect(page.getByLabel('Reminder interval (seconds)')).toHaveValue('60');

  await page.getByLabel('Default time limit (seconds)').fill('600');
  await page.getByLabel('Reminder interval (seconds)').fill('90');
  await page.getByLabel('Play a short sound when a question arrives').uncheck();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  const saved = await config(daemon.url);
  expect([saved.timeoutSecs, saved.remindSecs, saved.sound, saved.notification]).toEqual([600, 90, false, true]);
  // The other page follows without a reload.
  await expect(other.getByLabel('Reminder interval (seconds)')).toHaveValue('90');
  await expect(other.getByLabel('Play a short sound when a question arrives')).not.toBeChecked();

  await page.getByLabel('Keep history for (days)').fill('0');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'history' })).toContainText('from 1 to 3650 days');
  await page.getByLabel('Keep history for (days)').fill('30');

  await page.getByLabel('Reminder interval (seconds)').fill('999999');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'reminder interval' })).toContainText('from 0 to 86400');
  expect((await config(daemon.url)).remindSecs).toBe(90);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('settings save as a plain form', async ({ page, daemon }) => {
    await page.goto(daemon.url + '/settings');
    await page.getByLabel('Default time limit (seconds)').fill('120');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page).toHaveURL(daemon.url + '/settings');
    expect((await config(daemon.url)).timeoutSecs).toBe(120);
    await expect(page.getByLabel('Default time limit (seconds)')).toHaveValue('120');
  });
});
