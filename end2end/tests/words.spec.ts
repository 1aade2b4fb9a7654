// The page formats its words without Fluent (issue 30): the daemon resolves each catalogue and
// the browser fills in counts with its own Intl.PluralRules. Every message with variables, in
// every language, with counts that reach every plural form, must read exactly as the daemon's
// Fluent writes it: end2end/fixtures/words.json holds Fluent's output (kept current by
// hark-text's `words` test), and the page's own formatting (`harkWords`, exported by the
// WebAssembly) is compared with it, for the catalogue a page carries and for one fetched on a
// language switch.
import { test, expect, hydrated } from './daemon';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';

type Sample = { key: string; args: Record<string, number | string>; text: string };

const fixture: Record<string, Sample[]> = JSON.parse(
  readFileSync(path.resolve(__dirname, '../fixtures/words.json'), 'utf8'),
);

/** The groups of messages only the settings page carries (`app/src/server/catalogue_block.rs`). */
const SETTINGS_ONLY = ['elsewhere-', 'settings-', 'phone-', 'rules-'];
/** The groups the inbox leaves out too: the question and agents pages' own. */
const QUESTION_PAGES_ONLY = ['question-', 'image-', 'presets-', 'tell-', 'agents-', 'note-', 'answer-'];

const ACCEPT: Record<string, string> = { en: 'en-US', 'zh-CN': 'zh-CN', ko: 'ko-KR', ja: 'ja-JP', ru: 'ru-RU' };

/** What the page writes for each sample, through the module it runs. */
async function pageWords(page: Page, samples: Sample[]): Promise<string[]> {
  return page.evaluate(async (samples) => {
    // The address the hydration script imported: the same module, already running.
    const module: any = await import('/pkg/hark.js');
    return samples.map((sample) => module.harkWords(sample.key, sample.args));
  }, samples);
}

test('the fixture covers every language and the plural forms', () => {
  expect(Object.keys(fixture).sort()).toEqual(Object.keys(ACCEPT).sort());
  // Russian's three forms of a count: one, few, many.
  const russian = fixture['ru'].filter((sample) => sample.key === 'home-question-count');
  const forms = new Set(russian.map((sample) => sample.text.replace(/^\d+ /, '')));
  expect(forms.size).toBe(3);
});

for (const [code, accept] of Object.entries(ACCEPT)) {
  test.describe(code, () => {
    test.use({ locale: accept });

    test(`the page writes every ${code} message with variables as Fluent does`, async ({ page, daemon }) => {
      expect(fixture[code].length).toBeGreaterThan(50);
      // The settings page's own messages come only with that page (the others leave them out),
      // and the question pages' only with those (the inbox leaves them out).
      const inGroups = (groups: string[]) => (sample: Sample) => groups.some((group) => sample.key.startsWith(group));
      const settingsOnly = inGroups(SETTINGS_ONLY);
      const questionPagesOnly = inGroups(QUESTION_PAGES_ONLY);
      const asked = await daemon.ask({ questions: [{ question: 'Words?', options: [{ label: 'Yes' }] }] });
      for (const [address, samples] of [
        ['/', fixture[code].filter((sample) => !settingsOnly(sample) && !questionPagesOnly(sample))],
        [`/q/${asked.id}`, fixture[code].filter(questionPagesOnly)],
        ['/settings', fixture[code].filter(settingsOnly)],
      ] as const) {
        expect(samples.length, address).toBeGreaterThan(0);
        await page.goto(daemon.url + address);
        await hydrated(page);
        await expect(page.locator('html')).toHaveAttribute('lang', code);
        const written = await pageWords(page, samples);
        const wrong = samples
          .map((sample, index) => ({ ...sample, page: written[index] }))
          .filter((sample) => sample.page !== sample.text);
        expect(wrong, address).toEqual([]);
      }
    });
  });
}

test.describe('a switch', () => {
  test.use({ locale: 'en-US' });

  test('a catalogue fetched on a language switch writes as Fluent does too', async ({ page, daemon }) => {
    await page.goto(daemon.url + '/');
    await hydrated(page);
    await page.getByTestId('header-language').selectOption('ru');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
    const samples = fixture['ru'];
    const written = await pageWords(page, samples);
    expect(samples.filter((sample, index) => written[index] !== sample.text)).toEqual([]);
  });
});
