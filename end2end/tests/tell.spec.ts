// "Tell the agent…" (SPEC §18) in a real Chromium: the inbox's agent group and a question's page
// each have a box that leaves a message for that agent; the message shows as waiting, then as
// delivered the moment the agent collects it, live. Bad input is explained; the box works
// without JavaScript; the words come in the page's language.

import { test, expect, hydrated, type Daemon } from './daemon';
import type { Page } from '@playwright/test';

const source = { client: 'claude-code 2.1.3', cwd: '/w/hark' };
const agent = { client: 'claude-code', cwd: '/w/hark' };

async function messages(daemon: Daemon): Promise<any[]> {
  const response = await fetch(`${daemon.url}/api/messages`);
  return (await response.json()).messages;
}

/** What the agent's shim does on its next result: collects its messages. */
async function collect(daemon: Daemon): Promise<any[]> {
  const response = await fetch(`${daemon.url}/api/messages/deliver`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(agent),
  });
  return (await response.json()).messages;
}

/** The inbox, live, with one question from the agent, whose group's Tell box is opened. */
async function boxOpenInTheInbox(page: Page, daemon: Daemon) {
  await daemon.ask({ questions: [{ question: 'First?' }], source });
  await page.goto(daemon.url);
  await hydrated(page);
  await expect(page.locator('[data-connection="live"]')).toBeVisible();
  const group = page.locator('section.group', { hasText: 'claude-code 2.1.3 · hark' });
  await group.getByText('Tell the agent…').click();
  return group;
}

test('a message left in the inbox waits for its agent, then shows as delivered', async ({ page, daemon }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await daemon.ask({ questions: [{ question: 'Deploy now?', options: [{ label: 'Yes' }, { label: 'No' }] }], source });
  await daemon.ask({ questions: [{ question: 'Who are you?' }] });
  await page.goto(daemon.url);
  await hydrated(page);
  await expect(page.locator('[data-connection="live"]')).toBeVisible();
  // Only a group whose agent is known has the box.
  await expect(page.getByTestId('tell-agent')).toHaveCount(1);
  const group = page.locator('section.group', { hasText: 'claude-code 2.1.3 · hark' });
  await group.getByText('Tell the agent…').click();
  // Blank words are refused by the box itself, in Hark's words, and nothing is sent.
  await group.getByTestId('tell-text').fill('   ');
  await group.getByRole('button', { name: 'Send to the agent' }).click();
  const field = group.getByTestId('tell-text');
  expect(await field.evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(false);
  await expect(field).toHaveAttribute('title', 'Write a message of up to 4000 characters.');
  expect(await messages(daemon)).toHaveLength(0);
  await group.getByTestId('tell-text').fill('Use the staging database.');
  await group.getByRole('button', { name: 'Send to the agent' }).click();
  await page.waitForURL(daemon.url + '/');
  await hydrated(page);
  const told = page.locator('section.group', { hasText: 'claude-code 2.1.3 · hark' }).getByTestId('told-message');
  await expect(told).toHaveCount(1);
  await expect(told).toContainText('Use the staging database.');
  await expect(told).toContainText('Waiting for the agent');
  const kept = await messages(daemon);
  expect(kept).toHaveLength(1);
  expect(kept[0]).toMatchObject({ to: agent, text: 'Use the staging database.', status: 'waiting', via: 'page' });

  expect((await collect(daemon)).map((message) => message.text)).toEqual(['Use the staging database.']);
  await expect(told).toHaveAttribute('data-status', 'delivered');
  await expect(told).toContainText('Delivered');
  expect(errors).toEqual([]);
});

test('words being typed in a box stay while the inbox redraws around them', async ({ page, daemon }) => {
  const group = await boxOpenInTheInbox(page, daemon);
  await group.getByTestId('tell-text').pressSequentially('Half a thou');
  // Another question from the same agent: the server's new lists are swapped in.
  await daemon.ask({ questions: [{ question: 'Second?' }], source });
  await expect(group.locator('.headline')).toHaveText(['First?', 'Second?']);
  await expect(group.getByTestId('tell-text')).toBeVisible();
  await expect(group.getByTestId('tell-text')).toHaveValue('Half a thou');
  await expect(group.getByTestId('tell-text')).toBeFocused();
  await page.keyboard.type('ght.');
  await expect(group.getByTestId('tell-text')).toHaveValue('Half a thought.');
});

test('a redraw waits for an input method composing in a box, then keeps what it wrote', async ({ page, daemon }) => {
  const group = await boxOpenInTheInbox(page, daemon);
  const field = group.getByTestId('tell-text');
  await field.pressSequentially('Use ');
  // Marks this very element: a redraw replaces it, and the composition with it.
  await field.evaluate((input: HTMLInputElement) => (input.dataset.composing = 'here'));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.imeSetComposition', { text: 'zhong', selectionStart: 5, selectionEnd: 5 });
  // Another question from the same agent while the input method composes: its lists arrive
  // and wait (a redraw would have followed within milliseconds).
  const lists = page.waitForResponse((response) => response.url().includes('inbox_lists'));
  await daemon.ask({ questions: [{ question: 'Second?' }], source });
  await lists;
  await page.waitForTimeout(500);
  await expect(group.locator('.headline')).toHaveText(['First?']);
  await expect(group.locator('[data-composing="here"]')).toBeFocused();
  await expect(field).toHaveValue('Use zhong');
  // The composition ends with its word: then the lists are redrawn, the word kept.
  await cdp.send('Input.insertText', { text: '中' });
  await expect(group.locator('.headline')).toHaveText(['First?', 'Second?']);
  await expect(group.locator('[data-composing="here"]')).toHaveCount(0);
  await expect(field).toHaveValue('Use 中');
  await expect(field).toBeFocused();
  await page.keyboard.type(' staging');
  await expect(field).toHaveValue('Use 中 staging');
});

test("a question page's box keeps its words and openness across a language switch", async ({ page, daemon }) => {
  const question = await daemon.ask({ questions: [{ question: 'Which way?' }], source });
  await page.goto(`${daemon.url}/q/${question.id}`);
  await hydrated(page);
  await page.getByText('Tell the agent…').click();
  await page.getByTestId('tell-text').fill('Keep these words');
  await page.getByTestId('header-language').selectOption('zh-CN');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByTestId('tell-send')).toHaveText('发给智能体');
  await expect(page.getByTestId('tell-text')).toBeVisible();
  await expect(page.getByTestId('tell-text')).toHaveValue('Keep these words');
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('a question page tells its agent, in the page language', async ({ page, daemon }) => {
    const question = await daemon.ask({ questions: [{ question: '部署吗？', options: [{ label: '是' }, { label: '否' }] }], source });
    await page.goto(`${daemon.url}/q/${question.id}`);
    await hydrated(page);
    await expect(page.locator('[data-connection="live"]')).toBeVisible();
    await page.getByText('告诉智能体…').click();
    await page.getByTestId('tell-text').fill('先跑完测试');
    await page.getByRole('button', { name: '发给智能体' }).click();
    await page.waitForURL(`${daemon.url}/q/${question.id}`);
    await hydrated(page);
    await expect(page.getByTestId('told-message')).toContainText('等待智能体接收');
    await collect(daemon);
    await expect(page.getByTestId('told-message')).toContainText('已送达');
    // The question itself is untouched.
    expect((await daemon.question(question.id)).status).toBe('pending');
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the box is a plain form that comes back to its page', async ({ page, daemon }) => {
    const question = await daemon.ask({ questions: [{ question: 'Deploy now?', options: [{ label: 'Yes' }, { label: 'No' }] }], source });
    await page.goto(`${daemon.url}/q/${question.id}`);
    await page.getByText('Tell the agent…').click();
    await page.getByTestId('tell-text').fill('Stop after the tests.');
    await page.getByRole('button', { name: 'Send to the agent' }).click();
    await expect(page).toHaveURL(new RegExp(`/q/${question.id}$`));
    await expect.poll(async () => (await messages(daemon)).map((message) => message.text)).toEqual(['Stop after the tests.']);
  });
});
