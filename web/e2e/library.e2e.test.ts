// The recordings library in real Chromium against the real all-in-one server: bulk upload, tags
// in the list, filters in the URL, /search opening a hit at its moment, /tags for an ADMIN, no
// console error for a USER, row actions visible at 1280 px, and the phone layout in both themes.
// Real espeak-ng recordings transcribed by the server's engine. Waits for conditions, never for time.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import { apiSession, browserSuite, signIn, waitFor, type ApiClient, type DemoRole } from './harness';

jest.setTimeout(300_000);

const suite = browserSuite();
const SHOTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'screenshots');
let workDir: string;
let admin: ApiClient;

/** Two recordings every test may read, uploaded and transcribed through the API before the tests. */
const fixtures = [
  {
    name: 'library-invoice.wav',
    text: 'Good morning. I am calling about the invoice number on my last bill. Thank you, goodbye.',
    fileId: '',
  },
  {
    name: 'library-delivery.wav',
    text: 'Hello there. The delivery of my parcel was late again this week. Please call me back.',
    fileId: '',
  },
];

function speak(name: string, text: string): string {
  const wav = join(workDir, name);
  execFileSync('espeak-ng', ['-s', '140', '-w', wav, text]);
  return wav;
}

async function upload(api: ApiClient, name: string, text: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([await readFile(speak(name, text))], { type: 'audio/wav' }), name);
  const answer = await api('/files/upload', { form });
  if (answer.status !== 201) throw new Error(`Uploading ${name} failed: ${answer.status} ${await answer.text()}`);
  return ((await answer.json()) as { _id: string })._id;
}

interface Transcript {
  status: string;
  metadata: { speakerSegments: Array<{ _id: string; start: number; words: Array<{ text: string }> }> };
}

async function transcriptOf(api: ApiClient, fileId: string): Promise<Transcript> {
  return (await (await api(`/transcripts/file/${fileId}`)).json()) as Transcript;
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'earshot-library-e2e-'));
  await mkdir(SHOTS, { recursive: true });
  admin = await apiSession(suite.server.origin, 'ADMIN');
  for (const fixture of fixtures) fixture.fileId = await upload(admin, fixture.name, fixture.text);
  for (const fixture of fixtures) {
    await waitFor(async () => {
      const transcript = await transcriptOf(admin, fixture.fileId);
      if (transcript.status === 'failed') throw new Error(`${fixture.name} failed to transcribe`);
      return transcript.status === 'completed';
    }, `${fixture.name} to be transcribed`);
  }
}, 600_000);

afterAll(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

async function openAs(role: DemoRole, path: string, size: { width?: number; height?: number } = {}): Promise<Page> {
  const page = await suite.open(size);
  await signIn(page, suite.server.origin, role);
  await page.goto(`${suite.server.origin}${path}`);
  return page;
}

const row = (page: Page, name: string) =>
  page.locator('[data-testid="file-row"]', { has: page.locator('[data-testid="file-name"]', { hasText: name }) });

async function setTags(fileId: string, tags: string[]): Promise<void> {
  const answer = await admin(`/files/${fileId}/tags`, { method: 'PUT', json: { tags } });
  if (answer.status !== 200) throw new Error(`Tagging ${fileId} failed: ${answer.status} ${await answer.text()}`);
}

/**
 * Two words the engine really heard in the recording, one after the other, that the search finds
 * (not both stop words, which the server leaves out): asked of the API pair by pair.
 */
async function findablePhrase(fileId: string): Promise<string> {
  const transcript = await transcriptOf(admin, fileId);
  const words = transcript.metadata.speakerSegments.flatMap((segment) => segment.words.map((word) => word.text));
  for (let i = 0; i + 1 < words.length; i += 1) {
    const pair = `${words[i]} ${words[i + 1]}`;
    if (!/^[a-z]{2,} [a-z]{2,}$/i.test(pair)) continue;
    const found = (await (await admin(`/search?q=${encodeURIComponent(`"${pair}"`)}`)).json()) as {
      items: Array<{ fileId: string }>;
    };
    if (found.items.some((item) => item.fileId === fileId)) return pair;
  }
  throw new Error(`No findable phrase in ${words.join(' ')}`);
}

describe('the library in Chromium', () => {
  it('uploads two recordings in one action, each with its own entry, and lists both', async () => {
    const page = await openAs('USER', '/transcripts');
    const names = ['bulk-one.wav', 'bulk-two.wav'];
    const wavs = names.map((name, index) => speak(name, `This is bulk upload number ${index + 1}.`));
    await page.getByTestId('upload-language').selectOption('en');
    await page.getByTestId('upload-speakers').selectOption('1');
    await page.getByTestId('upload-input').setInputFiles(wavs);
    for (const name of names)
      await page.locator(`[data-testid="upload-item"][data-name="${name}"][data-status="done"]`).waitFor();
    await expect(page.getByTestId('upload-summary').textContent()).resolves.toContain('2 of 2 uploaded');
    await page.getByText('2 files uploaded').waitFor();
    for (const name of names) await row(page, name).waitFor();
    // The batch's fields reached the server with each file.
    const listed = (await (await admin('/files?pageSize=50')).json()) as {
      items: Array<{ originalName: string; language: string | null; expectedSpeakers: number | null }>;
    };
    for (const name of names)
      expect(listed.items.find((item) => item.originalName === name)).toMatchObject({
        language: 'en',
        expectedSpeakers: 1,
      });
  });

  it('tags two recordings in their rows and filters the list by the tag (kept over a reload)', async () => {
    const page = await openAs('USER', '/transcripts');
    const tag = `team-${Date.now()}`;
    for (const fixture of fixtures) {
      const line = row(page, fixture.name);
      await line.getByTestId('add-tag').click();
      await line.getByTestId('tag-input').fill(tag);
      await line.getByTestId('tag-input').press('Enter');
      await line.locator(`[data-testid="file-tag"][data-tag="${tag}"]`).waitFor();
    }
    await page.getByTestId('tag-filter').selectOption(tag);
    await page.waitForURL((url) => url.searchParams.get('tag') === tag);
    await waitFor(async () => (await page.getByTestId('file-row').count()) === 2, 'the list filtered by the tag');
    await page.reload();
    await row(page, fixtures[0]!.name).waitFor();
    expect((await page.getByTestId('file-name').allTextContents()).sort()).toEqual(
      fixtures.map((fixture) => fixture.name).sort(),
    );
    await expect(page.getByTestId('tag-filter').inputValue()).resolves.toBe(tag);
  });

  it('finds a quoted phrase on /search and opens the hit at its moment', async () => {
    const phrase = await findablePhrase(fixtures[0]!.fileId);
    const page = await openAs('USER', '/search');
    await page.getByRole('searchbox', { name: 'Search every transcript' }).fill(`"${phrase}"`);
    await page.getByRole('searchbox', { name: 'Search every transcript' }).press('Enter');
    const result = page.locator(`[data-testid="search-result"][data-file-id="${fixtures[0]!.fileId}"]`);
    await result.waitFor();
    const first = result.getByTestId('search-hit').first();
    const marked = (await first.locator('mark').allTextContents()).map((text) => text.toLowerCase());
    expect(marked.length).toBeGreaterThan(0);
    for (const text of marked) expect(phrase.toLowerCase().split(' ')).toContain(text);
    const start = Number(await first.getAttribute('data-start'));
    await first.click();
    await page.waitForURL(
      (url) => url.pathname === `/transcripts/${fixtures[0]!.fileId}` && url.searchParams.get('t') === String(start),
    );
    await page.locator('[data-testid="waveform"] audio').waitFor({ state: 'attached' });
    await page.waitForFunction((seconds) => {
      const audio = document.querySelector<HTMLAudioElement>('[data-testid="waveform"] audio');
      return Boolean(audio && Math.abs(audio.currentTime - seconds) < 0.5);
    }, start);
  });

  it('an ADMIN renames a tag on /tags, and the list filtered by the new name shows its recording', async () => {
    const old = `rename-me-${Date.now()}`;
    await setTags(fixtures[1]!.fileId, [old]);
    const page = await openAs('ADMIN', '/tags');
    await page.getByRole('link', { name: old, exact: true }).waitFor();
    await page.getByRole('button', { name: `Rename ${old}` }).click();
    await page.getByTestId('rename-tag-input').fill(`${old}-done`);
    await page.getByTestId('rename-tag-input').press('Enter');
    await page.getByRole('link', { name: `${old}-done`, exact: true }).waitFor();
    expect(await page.getByRole('link', { name: old, exact: true }).count()).toBe(0);
    await page.getByRole('link', { name: `${old}-done`, exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/transcripts' && url.searchParams.get('tag') === `${old}-done`);
    await row(page, fixtures[1]!.name).waitFor();
    await waitFor(
      async () => (await page.getByTestId('file-row').count()) === 1,
      'the list filtered by the renamed tag',
    );
  });

  it('a USER’s /transcripts, /search and /tags log no console error (no call the role may not make)', async () => {
    const page = await suite.open();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await signIn(page, suite.server.origin, 'USER');
    for (const path of ['/transcripts', '/search?q=invoice', '/tags']) {
      await page.goto(`${suite.server.origin}${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
    }
    await page.goto(`${suite.server.origin}/transcripts`);
    await row(page, fixtures[0]!.name).waitFor();
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);
  });

  it('keeps the companies table’s row actions visible at 1280 px', async () => {
    const page = await openAs('HOST_ADMIN', '/companies', { width: 1280, height: 860 });
    const remove = page
      .getByTestId('data-table-row')
      .first()
      .getByRole('button', { name: /^Delete / });
    await remove.waitFor();
    const region = await page.getByRole('region', { name: 'Companies' }).boundingBox();
    const button = await remove.boundingBox();
    expect(region && button).toBeTruthy();
    // Wholly inside the scrolling region and the window, not cut off at its right edge.
    expect(button!.x + button!.width).toBeLessThanOrEqual(region!.x + region!.width);
    expect(button!.x + button!.width).toBeLessThanOrEqual(1280);
  });

  it('fits 1280 and 375 px in light and dark without sideways page scroll (screenshots)', async () => {
    await setTags(fixtures[0]!.fileId, ['billing', 'priority']);
    const query = encodeURIComponent(`"${await findablePhrase(fixtures[0]!.fileId)}"`);
    for (const width of [1280, 375]) {
      for (const theme of ['light', 'dark'] as const) {
        const page = await suite.open({ width, height: 860 });
        await signIn(page, suite.server.origin, 'ADMIN');
        await page.evaluate((value) => localStorage.setItem('theme', value), theme);
        for (const [name, path, ready] of [
          ['transcripts', '/transcripts', '[data-testid="file-row"]'],
          ['search', `/search?q=${query}`, '[data-testid="search-result"]'],
          ['tags', '/tags', '[data-testid="data-table-row"]'],
        ] as const) {
          await page.goto(`${suite.server.origin}${path}`);
          await page.locator(ready).first().waitFor();
          await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(width);
          await page.screenshot({ path: join(SHOTS, `library-${name}-${width}-${theme}.png`), fullPage: width < 768 });
        }
      }
    }
  });
});
