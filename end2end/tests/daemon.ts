// A fixture that starts the release `hark` binary on a free port with a temporary HARK_HOME,
// one per test, and a small REST helper to play the agent's side.
import { test as base, expect, APIRequestContext } from '@playwright/test';
import { spawn, ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

export const binary = process.env.HARK_BIN ?? path.resolve(__dirname, '../../target/release/hark');

export type Daemon = {
  url: string;
  home: string;
  /** The pairing token, when the daemon has one (it asks every peer for it). */
  token?: string;
  /** POSTs an ask request and returns the created question. */
  ask: (request: object) => Promise<any>;
  /** GETs a question's JSON. */
  question: (id: string) => Promise<any>;
};

async function startDaemon(extraEnv: Record<string, string> = {}): Promise<{ daemon: Daemon; child: ChildProcess }> {
  const home = mkdtempSync(path.join(tmpdir(), 'hark-e2e-'));
  // Started from `/`: the binary must carry everything it serves.
  const child = spawn(binary, ['serve', '--port', '0'], {
    cwd: '/',
    // BROWSER: the daemon opens "the browser" when no page is open; here that is a no-op.
    env: { ...process.env, HARK_HOME: home, HARK_LOG: 'warn', HARK_PORT: '', BROWSER: 'true', ...extraEnv },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('hark did not start within 10 s')), 10_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      const match = line.match(/http:\/\/127\.0\.0\.1:\d+/);
      match ? resolve(match[0]) : reject(new Error(`unexpected first line: ${line}`));
    });
    child.once('exit', (code) => reject(new Error(`hark exited with ${code}`)));
  });
  const tokenFile = path.join(home, 'token');
  const token = existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : undefined;
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const json = async (response: Response) => {
    if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
    return response.json();
  };
  const daemon: Daemon = {
    url,
    home,
    token,
    ask: (request) =>
      fetch(`${url}/api/questions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth },
        body: JSON.stringify(request),
      }).then(json),
    question: (id) => fetch(`${url}/api/questions/${id}`, { headers: auth }).then(json),
  };
  return { daemon, child };
}

async function withDaemon(extraEnv: Record<string, string>, use: (daemon: Daemon) => Promise<void>) {
  const { daemon, child } = await startDaemon(extraEnv);
  await use(daemon);
  // Removed only once the daemon has stopped: a write it was finishing (a setting saved as the
  // test ended) would otherwise land in a directory being removed.
  const exited =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  rmSync(daemon.home, { recursive: true, force: true });
}

export const test = base.extend<{ daemon: Daemon; pairedDaemon: Daemon }>({
  daemon: async ({}, use) => withDaemon({}, use),
  /** A daemon that asks every peer for the token, as one in LAN mode asks a phone. */
  pairedDaemon: async ({}, use) => withDaemon({ HARK_REQUIRE_TOKEN: '1' }, use),
});

export { expect };

/** Waits until the WASM has hydrated the page, so clicks are not lost. */
export async function hydrated(page: import('@playwright/test').Page) {
  await expect(page.locator('body')).toHaveAttribute('data-hydrated', 'true');
}

/**
 * Holds back the page's requests to `pattern` until the returned function is called (a slow
 * link for one resource); only then do they go on to the daemon.
 */
export async function holdBack(page: import('@playwright/test').Page, pattern: string): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}
