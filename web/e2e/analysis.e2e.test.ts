// Prompts, transcript analysis and the viewer's ?t= in real Chromium against the real all-in-one
// server (`npm start`), with the kit's fake OpenAI-compatible provider and a real espeak-ng
// recording. Waits for conditions, never for time.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { connectFakeChatModel, fakeProviderSuite } from './fake-provider';
import { apiSession, priceChatModelsFree, shootThemes, signIn, uploadTranscribed, waitFor } from './harness';

jest.setTimeout(300_000);

let workDir: string;
let fileId = '';
const SHOTS = process.env.SCREENSHOT_DIR;
const PROMPT = 'Call scorecard';

const suite = fakeProviderSuite(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'earshot-analysis-e2e-'));
  const wav = join(workDir, 'analysis-call.wav');
  execFileSync('espeak-ng', [
    '-s',
    '140',
    '-w',
    wav,
    'Hello, thank you for calling. I would like a refund for my last invoice. Of course, it is done. Thank you, goodbye.',
  ]);
  fileId = await uploadTranscribed(await apiSession(suite.server.origin, 'USER'), wav);
}, 600_000);

async function signedIn(who: 'USER' | 'HOST_ADMIN', width = 1280): Promise<Page> {
  const page = await suite.open({ width });
  await signIn(page, suite.server.origin, who);
  return page;
}

const fieldErrors = (scope: Locator) => scope.getByTestId('field-error').allTextContents();

describe('prompts and analysis in Chromium', () => {
  it('a platform administrator creates a prompt with an integer and a custom field, meeting each spec message on the way', async () => {
    const page = await signedIn('HOST_ADMIN');
    await page.goto(`${suite.server.origin}/prompts`);
    await page.getByRole('heading', { name: 'Prompts' }).waitFor();
    await page.getByTestId('prompt-new').click();
    const form = page.getByTestId('prompt-form');
    await form.getByLabel('Name', { exact: true }).fill(PROMPT);
    await form.getByLabel('Prompt text').fill('Score this call: ');
    await form.getByRole('button', { name: '{{transcript}}' }).click();
    expect(await form.getByLabel('Prompt text').inputValue()).toBe('Score this call: {{transcript}}');
    await form.getByTestId('add-format-field').click();
    await form.getByTestId('add-format-field').click();
    const [score, tone] = [form.getByTestId('format-field').nth(0), form.getByTestId('format-field').nth(1)];
    await score.getByLabel('Field type').selectOption('integer');
    await tone.getByLabel('Field type').selectOption('custom');
    await form.getByTestId('form-save').click();
    await waitFor(async () => (await fieldErrors(score)).length === 3, 'the first field’s messages');
    expect(await fieldErrors(score)).toEqual([
      'Field name is required',
      'Range is required for integer type',
      'Description is required',
    ]);
    expect(await fieldErrors(tone)).toEqual([
      'Field name is required',
      'Options are required for Custom type',
      'Description is required',
    ]);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'prompt-form-errors.png'), fullPage: true });

    await score.getByLabel('Field name').fill('clarity_score');
    await score.getByLabel('Range').fill('1-10');
    await score.getByLabel('Field description').fill('How clearly the agent explained');
    await tone.getByLabel('Field name').fill('tone');
    await tone.getByLabel('Options', { exact: true }).fill('positive');
    await tone.getByLabel('Options', { exact: true }).press('Enter');
    await tone.getByLabel('Field description').fill('The customer’s tone');
    await form.getByTestId('form-save').click();
    await tone.getByText('At least 2 options are required for Custom type').waitFor();
    for (const option of ['neutral', 'negative']) {
      await tone.getByLabel('Options', { exact: true }).fill(option);
      await tone.getByLabel('Options', { exact: true }).press('Enter');
    }
    await form.getByLabel('Everyone may run it (global)').check();
    await form.getByTestId('form-save').click();
    await page.getByText('Prompt created successfully').waitFor();
    await page.getByTestId('prompts-table').getByText(PROMPT).waitFor();
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'prompts-list.png'), fullPage: true });
  });

  it('before any model is connected, a USER is told to ask their administrator instead of an enabled Run', async () => {
    const page = await signedIn('USER');
    await page.goto(`${suite.server.origin}/transcripts/${fileId}/analysis`);
    await page.getByTestId('call-metrics').waitFor();
    const notice = page.getByTestId('run-no-model');
    await notice.waitFor();
    expect(await notice.textContent()).toBe('Analysis needs an AI model — ask your administrator.');
    await page.getByTestId('run-choice').selectOption({ label: PROMPT });
    expect(await page.getByTestId('run-start').isDisabled()).toBe(true);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'analysis-no-model.png'), fullPage: true });
  });

  it('the platform administrator lands on a first-run checklist of what the new platform lacks', async () => {
    const page = await signedIn('HOST_ADMIN');
    await page.goto(`${suite.server.origin}/`);
    const checklist = page.getByTestId('first-run-checklist');
    await checklist.waitFor();
    const steps = checklist.getByTestId('first-run-step');
    expect(await steps.evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.step))).toEqual([
      'model',
      'whisper',
      'speakers',
      'mail',
    ]);
    expect(await checklist.locator('[data-step="model"]').getAttribute('data-done')).toBe('false');
    await shootThemes(page, 'first-run-checklist', 900);
  });

  it('a person runs the prompt on a transcript and sees the scorecard', async () => {
    const admin = await apiSession(suite.server.origin, 'HOST_ADMIN');
    await connectFakeChatModel(admin, suite.fake, { provider: 'Analysis fake' });
    await priceChatModelsFree(admin);
    suite.fake.setReply({ pieces: [JSON.stringify({ clarity_score: 8, tone: 'positive' })] });

    const page = await signedIn('USER');
    await page.goto(`${suite.server.origin}/transcripts/${fileId}/analysis`);
    await page.getByTestId('call-metrics').waitFor();
    await page.getByTestId('run-choice').selectOption({ label: PROMPT });
    await page.getByTestId('run-start').click();
    const card = page.locator('[data-testid="analysis-run"][data-status="completed"]').first();
    await card.getByTestId('scorecard').waitFor({ timeout: 120_000 });
    expect(await card.locator('[data-kind="integer"] > span').first().textContent()).toBe('8 / 10');
    expect(await card.locator('[data-kind="custom"]').textContent()).toBe('positive');
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'analysis-scorecard.png'), fullPage: true });
  });

  it('opens the viewer at ?t=5 positioned at 0:05, not playing, with the segment there highlighted', async () => {
    const page = await signedIn('USER');
    await page.goto(`${suite.server.origin}/transcripts/${fileId}?t=5`);
    await page.getByTestId('player-bar').waitFor();
    await waitFor(
      async () => ((await page.getByTestId('clock').textContent()) ?? '').startsWith('0:05 /'),
      'the clock at 0:05',
    );
    expect(await page.getByTestId('play-pause').getAttribute('aria-label')).toBe('Play');
    expect(await page.evaluate(() => document.querySelector('audio')?.paused)).toBe(true);
    await page.locator('[data-current="true"]').waitFor();
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'viewer-at-5s.png') });
    expect(await page.getByRole('link', { name: 'Ask about this recording' }).getAttribute('href')).toBe(
      `/chat?transcript=${fileId}`,
    );
    expect(await page.getByTestId('analysis-link').getAttribute('href')).toBe(`/transcripts/${fileId}/analysis`);
  });
});
