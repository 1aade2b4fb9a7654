// Attacks a real browser makes possible: a page on another site that loads the shim's
// cancelling long poll as an image, and a pairing link crafted to lead the browser off site.
// The foreign page is served on `localhost` (another site than 127.0.0.1) by a small server in
// the test; "evil.example" is answered by Playwright itself, so nothing leaves the machine.
import { test, expect } from './daemon';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Serves `html` on localhost until closed. */
async function foreignSite(html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://localhost:${port}/`, server };
}

test('a foreign page cannot cancel a question by loading its wait as an image', async ({ page, daemon }) => {
  const question = await daemon.ask({ questions: [{ question: 'Deploy?', options: [{ label: 'Yes' }, { label: 'No' }] }] });
  const wait = `${daemon.url}/api/questions/${question.id}/wait?cancelOnDisconnect=true`;
  const { url, server } = await foreignSite(
    `<!DOCTYPE html><title>cats</title><img id="bait" src="${wait}">` +
      `<script>setTimeout(() => document.getElementById('bait').remove(), 500)</script>`,
  );
  try {
    const attempt = page.waitForRequest((request) => request.url() === wait);
    await page.goto(url);
    await attempt;
    await page.waitForTimeout(1000);
    // Leaving the page drops whatever it still had open.
    await page.goto('about:blank');
    await page.waitForTimeout(1000);
    expect((await daemon.question(question.id)).status).toBe('pending');
  } finally {
    server.close();
  }
});

test('a crafted pairing link never leads the browser off site', async ({ page, daemon }) => {
  await page.route('http://evil.example/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>evil</title>' }),
  );
  const origin = new URL(daemon.url);
  for (const crafted of ['//evil.example/?token=x', '/\\evil.example/?token=x', '//evil.example/?a=b&token=x']) {
    await page.goto(`${daemon.url}${crafted}`);
    const landed = new URL(page.url());
    expect(landed.host, crafted).toBe(origin.host);
    expect(landed.search, crafted).not.toContain('token');
  }
});
