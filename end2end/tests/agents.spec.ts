// The Agents page (SPEC §20) on a phone-sized screen in a real Chromium: each agent session
// with what it is doing, since when, its directory, the last thing it said (Markdown rendered,
// never markup it wrote), its questions waiting in Hark and the Tell box; live as sessions
// change; in another language; and read and told without JavaScript.

import { test, expect, hydrated, type Daemon } from './daemon';

const phone = { width: 390, height: 844 };
const claude = { client: 'claude-code', cwd: '/home/me/shop' };
const codex = { client: 'codex', cwd: '/home/me/api' };

async function report(daemon: Daemon, body: object) {
  const response = await fetch(`${daemon.url}/api/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

async function messages(daemon: Daemon): Promise<any[]> {
  const response = await fetch(`${daemon.url}/api/messages`);
  return (await response.json()).messages;
}

test.use({ viewport: phone });

test('each agent shows what it does and said, live, and is told from its card', async ({ page, daemon }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await report(daemon, { agent: codex, sessionId: 'c1', state: 'working' });
  await report(daemon, {
    agent: claude,
    sessionId: 's1',
    state: 'finished',
    lastMessage: 'The cart is **refactored**; <script>window.pwned = 1</script> all tests pass.',
  });
  await daemon.ask({
    questions: [{ question: 'Deploy the shop now?', options: [{ label: 'Yes' }, { label: 'No' }] }],
    source: { client: 'codex 0.40', cwd: '/home/me/api' },
  });
  await page.goto(daemon.url + '/agents');
  await hydrated(page);
  await expect(page.locator('[data-connection="live"]')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your agents' })).toBeVisible();
  const cards = page.getByTestId('session');
  await expect(cards).toHaveCount(2);

  // The question Codex asks shows it asking, with a link to the question.
  const asking = cards.filter({ hasText: 'codex · api' });
  await expect(asking).toHaveAttribute('data-state', 'asking');
  await expect(asking.getByTestId('session-state')).toHaveText('Asking you in Hark');
  await expect(asking.getByTestId('session-question')).toHaveText('Deploy the shop now?');

  const finished = cards.filter({ hasText: 'claude-code · shop' });
  await expect(finished.getByTestId('session-state')).toHaveText('Finished its turn');
  await expect(finished.locator('code')).toHaveText('/home/me/shop');
  await expect(finished.locator('.said strong')).toHaveText('refactored');
  await expect(finished.locator('.said')).toContainText('<script>window.pwned = 1</script>');
  expect(await page.evaluate(() => (window as any).pwned)).toBeUndefined();

  // Live: Claude goes back to work, and its card says so without a reload.
  await report(daemon, { agent: claude, sessionId: 's1', state: 'working' });
  await expect(finished).toHaveAttribute('data-state', 'working');
  await expect(finished.getByTestId('session-state')).toHaveText('Working');

  // Told from the card: the message waits for Claude.
  await finished.getByText('Tell the agent…').click();
  await finished.getByTestId('tell-text').fill('Also update the changelog.');
  await finished.getByRole('button', { name: 'Send to the agent' }).click();
  await page.waitForURL(daemon.url + '/agents');
  const kept = await messages(daemon);
  expect(kept).toHaveLength(1);
  expect(kept[0]).toMatchObject({ to: claude, text: 'Also update the changelog.', status: 'waiting' });

  // An ended session leaves the page.
  await hydrated(page);
  await report(daemon, { agent: codex, sessionId: 'c1', state: 'ended' });
  await expect(cards).toHaveCount(1);

  // Phone-sized: nothing runs off the side of the screen.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(errors).toEqual([]);
});

test.describe('in Japanese', () => {
  test.use({ locale: 'ja-JP' });

  test('the page and the states are in the person\'s language', async ({ page, daemon }) => {
    await page.goto(daemon.url + '/agents');
    await expect(page.getByTestId('no-sessions')).toContainText('まだどのエージェントも');
    await report(daemon, { agent: claude, sessionId: 's1', state: 'waiting', lastMessage: 'Claude needs your permission to use Bash' });
    await page.reload();
    await hydrated(page);
    await expect(page.getByRole('heading', { name: 'あなたのエージェント' })).toBeVisible();
    await expect(page.getByTestId('session-state')).toHaveText('自身の画面であなたを待っています');
    await expect(page.getByRole('link', { name: 'エージェント' })).toHaveAttribute('href', '/agents');
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the agents are listed and told as plain forms', async ({ page, daemon }) => {
    await report(daemon, { agent: claude, sessionId: 's1', state: 'finished', lastMessage: 'Deployed to staging.' });
    await daemon.ask({
      questions: [{ question: 'Keep the old cart?', options: [{ label: 'Yes' }, { label: 'No' }] }],
      source: { client: 'claude-code 2.1', cwd: '/home/me/shop' },
    });
    await page.goto(daemon.url + '/agents');
    const card = page.getByTestId('session');
    await expect(card).toHaveCount(1);
    await expect(card.getByTestId('session-question')).toHaveText('Keep the old cart?');
    await expect(card.getByTestId('session-state')).toHaveText('Asking you in Hark');
    await expect(card.locator('.said')).toContainText('Deployed to staging.');
    await card.getByText('Tell the agent…').click();
    await card.getByTestId('tell-text').fill('Promote it to production.');
    await card.getByRole('button', { name: 'Send to the agent' }).click();
    await expect(page).toHaveURL(daemon.url + '/agents');
    const kept = await messages(daemon);
    expect(kept.map((message) => message.text)).toEqual(['Promote it to production.']);
    await expect(page.getByTestId('session')).toHaveCount(1);
  });
});
