// Transcripts in real Chromium against the real all-in-one server (`npm start`), with a real
// espeak-ng recording transcribed by the server's engine. Waits for conditions, never for time.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  apiSession,
  correctWord,
  launchBrowser,
  newPage,
  signIn,
  startServer,
  waitFor,
  type RunningServer,
} from './harness';

jest.setTimeout(300_000);

let server: RunningServer;
let browser: Browser;
let workDir: string;
const SHOTS = process.env.SCREENSHOT_DIR;

/** A recording every test may read, uploaded and transcribed through the API before the tests. */
const fixture = { name: 'espeak-fixture.wav', fileId: '', path: '' };

function speak(name: string, text: string): string {
  const wav = join(workDir, name);
  execFileSync('espeak-ng', ['-s', '140', '-w', wav, text]);
  return wav;
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'earshot-transcripts-e2e-'));
  // A master key, so that the last test can turn encryption at rest on for the demo company.
  server = await startServer({ ENCRYPTION_MASTER_KEY: randomBytes(32).toString('hex') });
  browser = await launchBrowser();
  const wav = speak(fixture.name, 'Good morning. I would like to ask about my invoice. Thanks a lot, goodbye.');
  Object.assign(fixture, await uploadTranscribed(wav, fixture.name));
}, 600_000);

/** Uploads a recording as the demo USER through the API and waits until it is transcribed. */
async function uploadTranscribed(wav: string, name: string): Promise<{ fileId: string; path: string }> {
  const api = await apiSession(server.origin, 'USER');
  const form = new FormData();
  form.append('file', new Blob([await readFile(wav)], { type: 'audio/wav' }), name);
  const upload = await api('/files/upload', { form });
  expect(upload.status).toBe(201);
  const { _id: fileId, path } = (await upload.json()) as { _id: string; path: string };
  await waitFor(async () => {
    const answer = (await (await api(`/transcripts/file/${fileId}`)).json()) as { status: string };
    if (answer.status === 'failed') throw new Error(`${name} failed to transcribe`);
    return answer.status === 'completed';
  }, `${name} to be transcribed`);
  return { fileId, path };
}

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
}, 60_000);

// Each test has its own browser profile, signed in afresh.
let context: BrowserContext;
let page: Page;

beforeEach(async () => {
  ({ context, page } = await newPage(browser));
  await signIn(page, server.origin, 'USER');
});

afterEach(async () => {
  await context?.close();
});

interface Word {
  _id: string;
  text: string;
  start: number;
  end: number;
}

async function transcriptOf(
  fileId: string,
): Promise<{ _id: string; metadata: { speakerSegments: Array<{ _id: string; words: Word[] }> } }> {
  return page.evaluate(
    async (id) => (await fetch(`/api/transcripts/file/${id}`, { credentials: 'include' })).json(),
    fileId,
  );
}

async function openTranscript(fileId: string): Promise<void> {
  await page.goto(`${server.origin}/transcripts/${fileId}`);
  await page.locator('[data-word-id]').first().waitFor();
}

const row = (name: string) =>
  page.locator('[data-testid="file-row"]', { has: page.locator('[data-testid="file-name"]', { hasText: name }) });

describe('transcripts in Chromium', () => {
  it('uploads a recording from the list, shows it completed, and opens it', async () => {
    const name = 'espeak-greeting.wav';
    const wav = speak(name, 'Hello and welcome. Please tell me your account number. Thank you very much, goodbye.');
    await page.goto(`${server.origin}/transcripts`);
    await page.getByRole('button', { name: 'Choose file' }).waitFor();
    await page.getByTestId('upload-input').setInputFiles(wav);
    await page.getByText('File Uploaded Successfully').waitFor();
    await row(name).waitFor();
    const fileId = (await row(name).getAttribute('data-file-id')) ?? '';
    expect(fileId).toMatch(/^[0-9a-f-]{36}$/);
    // The list polls by itself while the transcription is pending or processing.
    await row(name)
      .locator('[data-testid="transcription-status"][data-status="completed"]')
      .waitFor({ timeout: 240_000 });
    expect(await page.getByTestId('page-info').textContent()).toMatch(/^Showing page 1 of \d+$/);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'transcripts-list.png'), fullPage: true });

    await row(name).getByRole('link', { name: 'View Transcripts' }).click();
    await page.waitForURL((url) => url.pathname === `/transcripts/${fileId}`);
    await page.getByRole('heading', { name }).waitFor();
    await page.locator('[data-word-id]').first().waitFor();
    await page.locator('[data-testid="waveform"] audio').waitFor({ state: 'attached' });
    expect(await page.getByTestId('upload-date').textContent()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  });

  it('seeks to a word when it is clicked', async () => {
    await seekToAWord(fixture.fileId, 'transcript-viewer.png');
  });

  /** Opens a transcript, clicks a word a second or more in, and checks that playback starts there, then stops it. */
  async function seekToAWord(fileId: string, shot: string): Promise<void> {
    await openTranscript(fileId);
    await page.locator('[data-testid="waveform"] audio').waitFor({ state: 'attached' });
    const transcript = await transcriptOf(fileId);
    const words = transcript.metadata.speakerSegments.flatMap((s) => s.words);
    expect(words.length).toBeGreaterThan(2);
    const target = words.find((w) => w.start > 1) ?? words[words.length - 1]!;
    await page.locator(`[data-word-id="${target._id}"]`).click();
    await page.waitForFunction((start) => {
      const audio = document.querySelector<HTMLAudioElement>('[data-testid="waveform"] audio');
      return Boolean(audio && audio.currentTime >= start - 0.01);
    }, target.start);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, shot) });
    // Stop playback (the play/pause button) before editing.
    await page.waitForFunction(
      () => !document.querySelector<HTMLAudioElement>('[data-testid="waveform"] audio')?.paused,
    );
    await page.getByTestId('play-pause').click();
    await page.waitForFunction(
      () => document.querySelector<HTMLAudioElement>('[data-testid="waveform"] audio')?.paused === true,
    );
  }

  it('corrects a word with Enter and keeps it after a reload', async () => {
    await openTranscript(fixture.fileId);
    const transcript = await transcriptOf(fixture.fileId);
    const word = transcript.metadata.speakerSegments[0]!.words[0]!;
    await correctWord(page, word, 'Greetings');
    await page.getByText('Word updated').waitFor();
    await page.locator(`[data-word-id="${word._id}"]`, { hasText: 'Greetings' }).waitFor();
    await page.reload();
    await page.locator(`[data-word-id="${word._id}"]`, { hasText: 'Greetings' }).waitFor();
  });

  it('refuses a text file named .mp3 with the error toast and adds no row', async () => {
    await page.goto(`${server.origin}/transcripts`);
    await row(fixture.name).waitFor();
    const before = await page.getByTestId('file-row').count();
    await page.getByTestId('upload-input').setInputFiles({
      name: 'notes.mp3',
      mimeType: 'audio/mpeg',
      buffer: Buffer.from('These are meeting notes, not audio.\n'.repeat(20)),
    });
    const toast = page.getByTestId('toast-error');
    await toast.getByText('Error While Uploading File').waitFor();
    expect(await toast.textContent()).toContain('Only audio files can be uploaded');
    await page.getByTestId('upload-progress').waitFor({ state: 'detached' });
    expect(await page.getByTestId('file-row').count()).toBe(before);
    expect(await row('notes.mp3').count()).toBe(0);
  });

  // Last: it turns encryption at rest on for the demo company of this suite's server.
  it('plays and seeks a recording stored encrypted at rest, the browser reading it by Range', async () => {
    const companyId = fixture.path.split('/')[0]!;
    const host = await apiSession(server.origin, 'HOST_ADMIN');
    const policies = (await (await host(`/companies/${companyId}/policies`)).json()) as Record<string, unknown>;
    expect(
      (await host(`/companies/${companyId}/policies`, { method: 'PUT', json: { ...policies, encryption: true } }))
        .status,
    ).toBe(200);
    // The file service learns of the switch from an event; uploads after it are stored encrypted.
    const admin = await apiSession(server.origin, 'ADMIN');
    await waitFor(
      async () => ((await (await admin(`/files/encryption/${companyId}`)).json()) as { encrypt: boolean }).encrypt,
      'encryption to be on for the company',
    );
    const name = 'espeak-encrypted.wav';
    const { fileId } = await uploadTranscribed(
      speak(name, 'This call is stored encrypted. Please confirm the delivery address. Thank you, goodbye.'),
      name,
    );
    const answers: number[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/api/uploads/')) answers.push(response.status());
    });
    await seekToAWord(fileId, 'transcript-viewer-encrypted.png');
    expect(
      await page.evaluate(
        () => document.querySelector<HTMLAudioElement>('[data-testid="waveform"] audio')?.error ?? null,
      ),
    ).toBeNull();
    expect(answers).toContain(206);
    expect(answers.filter((status) => status >= 400)).toEqual([]);
  });
});
