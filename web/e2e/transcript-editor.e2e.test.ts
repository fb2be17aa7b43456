// The transcript editor in real Chromium against the real all-in-one server, on a real
// stereo call (espeak-ng, one voice per channel: two speakers) transcribed by the server's engine.
// Every test reads the transcript as it is now through the API, so none depends on another's edits.
// Waits for conditions, never for time. SCREENSHOT_DIR=docs/screenshots saves the screens.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import { apiSession, browserSuite, correctWord, seriousViolations, signIn, waitFor, type ApiClient } from './harness';

jest.setTimeout(300_000);

const suite = browserSuite();
const SHOTS = process.env.SCREENSHOT_DIR;
let workDir: string;
let api: ApiClient;
let fileId = '';

interface Word {
  _id: string;
  text: string;
  start: number;
  end: number;
}
interface Segment {
  _id: string;
  speakerId: string;
  start: number;
  text: string;
  words: Word[];
}
interface Transcript {
  metadata: { speakers: Array<{ id: string; label: string; color: string }>; speakerSegments: Segment[] };
}

async function transcript(): Promise<Transcript> {
  return (await (await api(`/transcripts/file/${fileId}`)).json()) as Transcript;
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'earshot-editor-e2e-'));
  const say = (file: string, text: string) => {
    execFileSync('espeak-ng', ['-s', '140', '-w', join(workDir, file), text]);
    return join(workDir, file);
  };
  // The agent speaks on the left channel, then the customer on the right: a stereo call.
  execFileSync('sox', [
    say('a.wav', 'Good morning, thank you for calling. How can I help you today?'),
    join(workDir, 'left.wav'),
    'pad',
    '0',
    '6',
  ]);
  execFileSync('sox', [
    say('b.wav', 'Hello, I have a question about my invoice please.'),
    join(workDir, 'right.wav'),
    'pad',
    '5',
    '0',
  ]);
  const wav = join(workDir, 'editor-call.wav');
  execFileSync('sox', ['-M', join(workDir, 'left.wav'), join(workDir, 'right.wav'), wav]);
  api = await apiSession(suite.server.origin, 'USER');
  const form = new FormData();
  form.append('file', new Blob([await readFile(wav)], { type: 'audio/wav' }), 'editor-call.wav');
  const upload = await api('/files/upload', { form });
  expect(upload.status).toBe(201);
  fileId = ((await upload.json()) as { _id: string })._id;
  await waitFor(async () => {
    const answer = (await (await api(`/transcripts/file/${fileId}`)).json()) as { status: string };
    if (answer.status === 'failed') throw new Error('The call failed to transcribe');
    return answer.status === 'completed';
  }, 'the call to be transcribed');
}, 600_000);

afterAll(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

async function openEditor(size?: { width: number; height: number }): Promise<Page> {
  const page = await suite.open(size);
  await signIn(page, suite.server.origin, 'USER');
  await page.goto(`${suite.server.origin}/transcripts/${fileId}`);
  await page.locator('[data-word-id]').first().waitFor();
  return page;
}

const segmentRow = (page: Page, id: string) => page.locator(`[data-testid="segment"][data-segment-id="${id}"]`);
const audioState = (page: Page) =>
  page.evaluate(() => document.querySelector<HTMLAudioElement>('[data-testid="waveform"] audio')?.paused);

describe('the transcript editor in Chromium', () => {
  it('has two speakers on a stereo call, with their colours', async () => {
    const { metadata } = await transcript();
    const ids = new Set(metadata.speakerSegments.map((s) => s.speakerId));
    expect(ids.size).toBe(2);
    expect(metadata.speakers.every((s) => /^#[0-9a-f]{6}$/i.test(s.color))).toBe(true);
  });

  it('renames a speaker, and the name shows in every turn of theirs and after a reload', async () => {
    const page = await openEditor();
    const { metadata } = await transcript();
    const speakerId = metadata.speakerSegments[0]!.speakerId;
    const chip = page.locator(`[data-testid="speaker-chip"][data-speaker-id="${speakerId}"]`);
    await chip.getByRole('button', { name: /^Rename / }).click();
    const field = chip.getByRole('combobox');
    await field.fill('Maria Tamm');
    await field.press('Enter');
    await page.getByTestId('toast-success').getByText('Speaker renamed').waitFor();
    await segmentRow(page, metadata.speakerSegments[0]!._id)
      .getByTestId('speaker-name')
      .getByText('Maria Tamm')
      .waitFor();
    const after = await transcript();
    expect(after.metadata.speakers.find((s) => s.id === speakerId)?.label).toBe('Maria Tamm');
    await page.reload();
    await chip.getByText('Maria Tamm').waitFor();
    const theirs = after.metadata.speakerSegments.filter((s) => s.speakerId === speakerId);
    for (const segment of theirs)
      await expect(segmentRow(page, segment._id).getByTestId('speaker-name').textContent()).resolves.toBe('Maria Tamm');
  });

  it('fixes a turn: gives it to the other speaker, then undoes that', async () => {
    const page = await openEditor();
    const { metadata } = await transcript();
    const segment = metadata.speakerSegments[0]!;
    const other = metadata.speakers.find((s) => s.id !== segment.speakerId)!;
    const row = segmentRow(page, segment._id);
    await row.getByTestId('segment-menu').click();
    await page.getByRole('menuitem', { name: /^Give this turn to / }).click();
    await waitFor(
      async () =>
        (await transcript()).metadata.speakerSegments.find((s) => s._id === segment._id)?.speakerId === other.id,
      'the turn to be reassigned',
    );
    await page.waitForFunction(
      ([id, name]) =>
        document.querySelector(`[data-segment-id="${id}"] [data-testid="speaker-name"]`)?.textContent === name,
      [segment._id, other.label] as const,
    );
    await page.getByTestId('undo').click();
    await waitFor(
      async () =>
        (await transcript()).metadata.speakerSegments.find((s) => s._id === segment._id)?.speakerId ===
        segment.speakerId,
      'the reassignment to be undone',
    );
    // The row shows its speaker again: what stays on screen, where the "Edit undone" toast goes
    // after a few seconds and a busy machine could check for it too late.
    const own = metadata.speakers.find((s) => s.id === segment.speakerId)!;
    await page.waitForFunction(
      ([id, name]) =>
        document.querySelector(`[data-segment-id="${id}"] [data-testid="speaker-name"]`)?.textContent === name,
      [segment._id, own.label] as const,
    );
  });

  it('undoes a word corrected before a reload: the undo stack is kept by the server', async () => {
    const page = await openEditor();
    const { metadata } = await transcript();
    const word = metadata.speakerSegments[0]!.words.at(-1)!;
    await correctWord(page, word, 'Reloaded');
    await page.locator(`[data-word-id="${word._id}"]`, { hasText: 'Reloaded' }).waitFor();
    await page.reload();
    await page.locator(`[data-word-id="${word._id}"]`, { hasText: 'Reloaded' }).waitFor();
    await page.waitForFunction(
      () => document.querySelector<HTMLButtonElement>('[data-testid="undo"]')?.disabled === false,
    );
    await page.getByTestId('undo').click();
    await waitFor(
      async () =>
        (await transcript()).metadata.speakerSegments[0]!.words.find((w) => w._id === word._id)?.text === word.text,
      'the word to be restored',
    );
    await page.waitForFunction(
      ([id, text]) => document.querySelector(`[data-word-id="${id}"]`)?.textContent?.includes(text) === true,
      [word._id, word.text.trim()] as const,
    );
  });

  it('edits a turn’s text in place: Enter saves, untouched words keep their times', async () => {
    const page = await openEditor();
    const { metadata } = await transcript();
    const segment = metadata.speakerSegments.at(-1)!;
    await segmentRow(page, segment._id).getByTestId('segment-menu').click();
    await page.getByRole('menuitem', { name: 'Edit text' }).click();
    const area = page.getByRole('textbox', { name: 'Text of this turn' });
    const words = segment.words.map((w) => w.text);
    const edited = [...words.slice(0, -1), 'Earshotly'].join(' ');
    await area.fill(edited);
    // Shift+Enter adds no line: a turn is one line.
    await area.press('Shift+Enter');
    await expect(area.inputValue()).resolves.toBe(edited);
    await area.press('Enter');
    await segmentRow(page, segment._id).locator('[data-word-id]', { hasText: 'Earshotly' }).waitFor();
    const saved = (await transcript()).metadata.speakerSegments.find((s) => s._id === segment._id)!;
    expect(saved.words.map((w) => w.text).join(' ')).toBe(edited);
    expect(saved.words[0]).toEqual(segment.words[0]);
  });

  it('replaces a word everywhere with Ctrl+H, counting the matches, and undoes it', async () => {
    const page = await openEditor();
    const { metadata } = await transcript();
    const text = metadata.speakerSegments.flatMap((s) => s.words.map((w) => w.text.trim()));
    const target = text.find((w) => /^[a-z]{4,}$/i.test(w))!;
    const expected = text.filter((w) => w.toLowerCase() === target.toLowerCase()).length;
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+h');
    await page.getByTestId('find-input').fill(target);
    await page.getByRole('checkbox', { name: 'Whole word' }).check();
    await expect(page.getByTestId('match-count').getAttribute('data-count')).resolves.toBe(String(expected));
    await page.getByTestId('replace-input').fill('Zebra');
    await page.getByTestId('replace-all').click();
    await page.getByTestId('toast-success').getByText(`Replaced: ${expected}`).waitFor();
    await page.locator('[data-word-id]', { hasText: 'Zebra' }).first().waitFor();
    await expect(page.locator('[data-word-id]', { hasText: 'Zebra' }).count()).resolves.toBe(expected);
    await page.keyboard.press('Escape');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+z');
    await page.getByTestId('toast-success').getByText('Edit undone').waitFor();
    await page.locator('[data-word-id]', { hasText: 'Zebra' }).first().waitFor({ state: 'detached' });
    const words = (await transcript()).metadata.speakerSegments.flatMap((s) => s.words.map((w) => w.text));
    expect(words.filter((w) => w.includes('Zebra'))).toEqual([]);
  });

  it('exports SRT from the menu: the download holds the cues with the latest words', async () => {
    const page = await openEditor();
    const { metadata } = await transcript();
    await page.getByTestId('export-menu').click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Export as SRT' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('editor-call.srt');
    const srt = await readFile((await download.path())!, 'utf8');
    expect(srt).toMatch(/^1\r?\n\d{2}:\d{2}:\d{2},\d{3} --> \d{2}:\d{2}:\d{2},\d{3}\r?\n/);
    expect(srt).toContain(metadata.speakerSegments[0]!.words[0]!.text.trim());
  });

  it('plays and pauses with Space, and with Ctrl+Space while a turn is being edited', async () => {
    const page = await openEditor();
    await page.locator('[data-testid="waveform"] audio').waitFor({ state: 'attached' });
    await page.waitForFunction(
      () => (document.querySelector<HTMLAudioElement>('[data-testid="waveform"] audio')?.readyState ?? 0) >= 1,
    );
    await page.getByRole('heading', { level: 1 }).click();
    await page.keyboard.press('Space');
    await page.waitForFunction(
      () => document.querySelector<HTMLAudioElement>('[data-testid="waveform"] audio')?.paused === false,
    );
    await page.keyboard.press('Space');
    await page.waitForFunction(
      () => document.querySelector<HTMLAudioElement>('[data-testid="waveform"] audio')?.paused === true,
    );
    await page.getByTestId('segment-menu').first().click();
    await page.getByRole('menuitem', { name: 'Edit text' }).click();
    const area = page.getByRole('textbox', { name: 'Text of this turn' });
    const before = await area.inputValue();
    await area.press('Control+Space');
    await page.waitForFunction(
      () => document.querySelector<HTMLAudioElement>('[data-testid="waveform"] audio')?.paused === false,
    );
    await area.press('Control+Space');
    await expect(audioState(page)).resolves.toBe(true);
    await expect(area.inputValue()).resolves.toBe(before);
    await area.press('Escape');
    await area.waitFor({ state: 'detached' });
  });

  it('lists the shortcuts in a dialog on ?, and shows the edit history', async () => {
    const page = await openEditor();
    await page.getByRole('heading', { level: 1 }).click();
    await page.keyboard.press('Shift+?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.getByText('Next unsure word (Alt+N while typing)').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('open-history').click();
    const history = page.getByRole('dialog', { name: 'Edit history' });
    await history.getByTestId('edit-item').first().waitFor();
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'transcript-editor-history.png') });
  });

  it('fits a 375 px phone in both themes (toolbar in one menu, no sideways scroll); screenshots', async () => {
    for (const [width, theme] of [
      [1280, 'light'],
      [1280, 'dark'],
      [375, 'light'],
      [375, 'dark'],
    ] as const) {
      const page = await openEditor({ width, height: 860 });
      await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
      if (width === 375) {
        await page.getByTestId('editor-tools').waitFor();
        await expect(page.getByTestId('editor-toolbar').count()).resolves.toBe(0);
        await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(width);
        // The waveform gets a row of its own: nearly the phone's width, not what the controls leave.
        const wave = await page.getByTestId('waveform').boundingBox();
        expect(wave!.width).toBeGreaterThan(width - 64);
      } else {
        await page.keyboard.press('Control+h');
        await page.getByTestId('find-input').fill('you');
      }
      await expect(seriousViolations(page)).resolves.toEqual([]);
      if (SHOTS) await page.screenshot({ path: join(SHOTS, `transcript-editor-${width}-${theme}.png`) });
      await page.context().close();
    }
  });
});
