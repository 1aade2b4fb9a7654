// Images in answers (SPEC §13): pasted, dropped or picked on the question page, shown as
// thumbnails with remove, checked in the page as the daemon checks them, and delivered to an MCP
// client (the real `hark mcp` shim, spoken to over stdio) as image content blocks.
import { test, expect, hydrated, binary, Daemon } from './daemon';
import { spawn } from 'node:child_process';
import readline from 'node:readline';

// A valid 1×1 PNG, so thumbnails really decode.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** `hark mcp` against the test's daemon, and JSON-RPC over its stdio. */
function mcpClient(daemon: Daemon) {
  const port = new URL(daemon.url).port;
  const child = spawn(binary, ['mcp'], {
    env: { ...process.env, HARK_HOME: daemon.home, HARK_PORT: port, HARK_LOG: 'warn', BROWSER: 'true' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting = new Map<number, (message: any) => void>();
  readline.createInterface({ input: child.stdout! }).on('line', (line) => {
    const message = JSON.parse(line);
    const resolve = waiting.get(message.id);
    if (resolve && ('result' in message || 'error' in message)) {
      waiting.delete(message.id);
      resolve(message);
    }
  });
  let next = 1;
  const send = (message: object) => child.stdin!.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
  const request = (method: string, params: object) =>
    new Promise<any>((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      send({ id, method, params });
    });
  return {
    async start() {
      await request('initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'images-e2e', version: '1' },
      });
      send({ method: 'notifications/initialized' });
    },
    call: (name: string, args: object) => request('tools/call', { name, arguments: args }),
    close: () => child.kill(),
  };
}

async function pendingQuestion(daemon: Daemon): Promise<any> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const list = await fetch(`${daemon.url}/api/questions?status=pending`).then((r) => r.json());
    if (list.questions.length > 0) return list.questions[0];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no question arrived');
}

test('a pasted image reaches an MCP client as an image block', async ({ page, daemon }) => {
  const client = mcpClient(daemon);
  await client.start();
  const result = client.call('ask_user', { questions: [{ question: 'What does the error look like?' }] });
  const question = await pendingQuestion(daemon);
  await page.goto(`${daemon.url}/q/${question.id}`);
  await hydrated(page);
  await page.locator('#q0-text').fill('Here it is');
  // Pasting a screenshot, as Ctrl+V does after a screen capture.
  await page.evaluate((png) => {
    const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], 'screenshot.png', { type: 'image/png' }));
    const paste = new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true });
    document.querySelector('#q0-text')!.dispatchEvent(paste);
  }, PNG);
  const thumbnail = page.locator('.thumbnail img');
  await expect(thumbnail).toHaveCount(1);
  expect(await thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  await expect(page.locator('#q0-text')).toHaveValue('Here it is');
  await page.getByRole('button', { name: 'Send answer' }).click();
  await expect(page).toHaveURL(daemon.url + '/');

  const response = await result;
  const blocks = response.result.content;
  const images = blocks.filter((block: any) => block.type === 'image');
  expect(images).toEqual([{ type: 'image', data: PNG, mimeType: 'image/png' }]);
  expect(response.result.structuredContent.answers[0]).toEqual({
    question: 'What does the error look like?',
    selected: [],
    freeText: 'Here it is',
    images: [{ mediaType: 'image/png', size: 70 }],
  });
  client.close();

  // The history shows it, and the closed question shows the picture itself.
  await expect(page.locator('.card', { hasText: 'What does the error look like?' })).toContainText('one image');
  await page.goto(`${daemon.url}/q/${question.id}`);
  const shown = page.getByTestId('answer-images').locator('img');
  await expect(shown).toHaveCount(1);
  await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
});

test('images are dropped, picked, removed and refused in the page before sending', async ({ page, daemon }) => {
  const question = await daemon.ask({
    questions: [
      { question: 'Which layout?', options: [{ label: 'A' }, { label: 'B' }] },
      { question: 'Anything else?' },
    ],
  });
  await page.goto(`${daemon.url}/q/${question.id}`);
  await hydrated(page);
  const png = Buffer.from(PNG, 'base64');
  const picker = page.locator('#q1-images');
  await expect(page.getByText('Add image').first()).toBeVisible();
  expect(await picker.getAttribute('accept')).toBe('image/png,image/jpeg,image/webp,image/gif');

  // Dropped on the second question.
  await page.evaluate((bytes) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0))], 'drop.png', { type: 'image/png' }));
    const target = document.querySelector('fieldset.sub-question[data-index="1"]')!;
    target.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, PNG);
  const second = page.locator('[data-images="1"] .thumbnail');
  await expect(second).toHaveCount(1);

  // Picked: three more fill the answer; a fifth is refused by name.
  await picker.setInputFiles([1, 2, 3].map((n) => ({ name: `pick${n}.png`, mimeType: 'image/png', buffer: png })));
  await expect(second).toHaveCount(4);
  await picker.setInputFiles({ name: 'fifth.png', mimeType: 'image/png', buffer: png });
  await expect(page.locator('#q1-error')).toHaveText('At most 4 images per answer.');
  await expect(second).toHaveCount(4);

  // Removed, then wrong type and too large are refused, naming the file.
  await page.getByRole('button', { name: 'Remove image 4' }).click();
  await page.getByRole('button', { name: 'Remove image 3' }).click();
  await expect(second).toHaveCount(2);
  await expect(page.locator('#q1-error')).toHaveText('');
  await picker.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.locator('#q1-error')).toHaveText('notes.txt is not a PNG, JPEG, WebP or GIF image.');
  // A GIF is never redrawn (it would stop moving): one over 5 MB is refused.
  const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(5 * 1024 * 1024 + 64)]);
  await picker.setInputFiles({ name: 'huge.gif', mimeType: 'image/gif', buffer: gif });
  await expect(page.locator('#q1-error')).toHaveText('huge.gif is 5.0 MB; an image can be at most 5 MB.');
  await expect(second).toHaveCount(2);

  // A PNG of 1 MB saved as .jpg: sent as the PNG its bytes are, through the form's large body.
  // Whole: the 1×1 PNG with a private chunk of padding before its end chunk.
  const end = png.length - 12;
  const padding = 1024 * 1024 - png.length - 12;
  const chunkHead = Buffer.alloc(8);
  chunkHead.writeUInt32BE(padding, 0);
  chunkHead.write('teSt', 4, 'latin1');
  const big = Buffer.concat([png.subarray(0, end), chunkHead, Buffer.alloc(padding + 4), png.subarray(end)]);
  await picker.setInputFiles({ name: 'renamed.jpg', mimeType: 'image/jpeg', buffer: big });
  await expect(second).toHaveCount(3);

  // An image alone answers the second question.
  await page.locator('#q0-o1').check();
  await page.getByRole('button', { name: 'Send answer' }).click();
  await expect(page).toHaveURL(daemon.url + '/');
  const answered = await daemon.question(question.id);
  expect(answered.answers).toEqual([
    { selected: ['B'] },
    {
      selected: [],
      images: [
        { mediaType: 'image/png', size: 70 },
        { mediaType: 'image/png', size: 70 },
        { mediaType: 'image/png', size: 1024 * 1024 },
      ],
    },
  ]);
  const served = await fetch(`${daemon.url}/api/questions/${question.id}/images/1/1`);
  expect(served.headers.get('content-type')).toBe('image/png');
  expect(Buffer.from(await served.arrayBuffer())).toEqual(png);
});

test('a camera photo too large for an answer is redrawn smaller and sent', async ({ page, daemon }) => {
  const question = await daemon.ask({ questions: [{ question: 'Photo of the whiteboard?' }] });
  await page.goto(`${daemon.url}/q/${question.id}`);
  await hydrated(page);
  // What the send button says while the photo is redrawn (a second or two).
  await page.evaluate(() => {
    const button = document.querySelector<HTMLButtonElement>('.actions button.primary')!;
    const seen: [string, boolean][] = ((window as any).sendButton = []);
    new MutationObserver(() => seen.push([button.textContent ?? '', button.disabled])).observe(button, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
  });
  // A 2600×2000 photo of pure noise: a PNG of about 15 MB, three times what an answer takes.
  const original = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 2600;
    canvas.height = 2000;
    const context = canvas.getContext('2d')!;
    const pixels = context.createImageData(canvas.width, canvas.height);
    for (let i = 0; i < pixels.data.length; i++) pixels.data[i] = i % 4 === 3 ? 255 : (Math.random() * 256) | 0;
    context.putImageData(pixels, 0, 0);
    const blob: Blob = await new Promise((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
    const transfer = new DataTransfer();
    transfer.items.add(new File([blob], 'camera.png', { type: 'image/png' }));
    const target = document.querySelector('fieldset.sub-question[data-index="0"]')!;
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    return blob.size;
  });
  expect(original).toBeGreaterThan(5 * 1024 * 1024);
  await expect(page.locator('.thumbnail img')).toHaveCount(1, { timeout: 20_000 });
  await expect(page.locator('#q0-error')).toHaveText('');
  expect(await page.evaluate(() => (window as any).sendButton)).toContainEqual(['Reading images…', true]);
  await page.getByRole('button', { name: 'Send answer' }).click();
  await expect(page).toHaveURL(daemon.url + '/', { timeout: 30_000 });
  const [image] = (await daemon.question(question.id)).answers[0].images;
  expect(image.mediaType).toBe('image/jpeg');
  expect(image.size).toBeLessThanOrEqual(5 * 1024 * 1024);
  expect(image.size).toBeGreaterThan(100 * 1024);
});

test.describe('in Russian', () => {
  test.use({ locale: 'ru-RU' });
  test('the image controls and refusals are translated', async ({ page, daemon }) => {
    const question = await daemon.ask({ questions: [{ question: 'Что не так?' }] });
    await page.goto(`${daemon.url}/q/${question.id}`);
    await hydrated(page);
    await expect(page.getByText('Добавить изображение')).toBeVisible();
    await page.locator('#q0-images').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
    await expect(page.locator('#q0-error')).toHaveText('notes.txt — не изображение PNG, JPEG, WebP или GIF.');
    // Sizes with the Russian decimal comma.
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(Math.round(6.3 * 1024 * 1024))]);
    await page.locator('#q0-images').setInputFiles({ name: 'huge.gif', mimeType: 'image/gif', buffer: gif });
    await expect(page.locator('#q0-error')).toHaveText('huge.gif весит 6,3 МБ, а изображение может весить не больше 5 МБ.');
  });
});

test('on a phone the image button is a full-size target', async ({ browser, daemon }) => {
  const question = await daemon.ask({ questions: [{ question: 'Photo of the board?' }] });
  const context = await browser.newContext({ viewport: { width: 390, height: 800 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await page.goto(`${daemon.url}/q/${question.id}`);
  await hydrated(page);
  const button = page.locator('.add-images label');
  const box = (await button.boundingBox())!;
  expect(box.height).toBeGreaterThanOrEqual(44);
  await page.locator('#q0-images').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from(PNG, 'base64') });
  const remove = page.getByRole('button', { name: 'Remove image 1' });
  const removeBox = (await remove.boundingBox())!;
  expect(removeBox.height).toBeGreaterThanOrEqual(36);
  await context.close();
});
