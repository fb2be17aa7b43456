// AI Configuration → Speech models in real Chromium against the real all-in-one server: the
// platform administrator downloads a model from a loopback mirror and watches the progress bar
// move and the status become ready. The mirror sends each chunk only when the test releases it,
// once the page has shown the previous one: the test waits for conditions, never for time.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, jest } from '@jest/globals';
import type { Locator } from 'playwright-core';
import { fakeModel, ModelMirror, sha256, writeCatalogue } from '../../services/transcription/test/model-mirror';
import { browserSuite, shootThemes, signIn, waitFor } from './harness';

jest.setTimeout(300_000);

const MODEL = 'e2e-small';
const FILE = fakeModel(1024 * 1024);
const CHUNKS = 16;

const mirror = new ModelMirror();
const suite = browserSuite({
  env: async () => {
    await mirror.listen();
    mirror.files.set(`ggml-${MODEL}.bin`, FILE);
    mirror.gated.add(`ggml-${MODEL}.bin`);
    mirror.chunkBytes = FILE.length / CHUNKS;
    const catalogue = writeCatalogue(mkdtempSync(join(tmpdir(), 'earshot-e2e-models-')), [
      {
        name: MODEL,
        kind: 'whisper',
        file: `ggml-${MODEL}.bin`,
        languages: 'multilingual',
        sizeBytes: FILE.length,
        sha256: sha256(FILE),
      },
      {
        name: 'e2e-small.en',
        kind: 'whisper',
        file: 'ggml-e2e-small.en.bin',
        languages: 'en',
        sizeBytes: 3 * FILE.length,
        sha256: sha256(FILE),
      },
    ]);
    return { SPEECH_MODELS_URL: mirror.url, SPEECH_MODELS_CATALOGUE: catalogue };
  },
  tearDown: () => mirror.close(),
});

const progressOf = async (row: Locator) =>
  Number(await row.getByTestId('speech-model-progress').getAttribute('aria-valuenow'));

describe('speech models', () => {
  it('the platform administrator downloads a model, sees the progress bar move, and the model becomes ready and the default', async () => {
    const page = await suite.open({ width: 1280 });
    await signIn(page, suite.server.origin, 'HOST_ADMIN');
    await page.goto(`${suite.server.origin}/ai-config`);
    const section = page.getByTestId('speech-models-section');
    await section.getByRole('heading', { name: 'Speech models' }).waitFor();
    const row = section.locator(`[data-testid="speech-model-row"][data-model="${MODEL}"]`);
    await expect(row.getByTestId('speech-model-status').textContent()).resolves.toBe('Not downloaded');
    await expect(section.locator('[data-model="e2e-small.en"]').textContent()).resolves.toContain('English only');

    await row.getByRole('button', { name: 'Download' }).click();
    await waitFor(async () => (await row.getAttribute('data-status')) === 'downloading', 'the download to start');
    const bar = row.getByRole('progressbar', { name: `Download of ${MODEL}` });
    await bar.waitFor();
    expect(await progressOf(row)).toBe(0);

    // Each chunk is released once the page shows the last one: the bar moves forward each time.
    const seen: number[] = [];
    for (let chunk = 1; chunk <= 4; chunk++) {
      mirror.release(1);
      const before = seen.at(-1) ?? 0;
      await waitFor(async () => (await progressOf(row)) > before, `the progress bar to pass ${before} %`);
      seen.push(await progressOf(row));
    }
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBeGreaterThanOrEqual(25);
    expect(seen.at(-1)).toBeLessThan(100);
    await shootThemes(page, 'speech-models-downloading', 900);

    mirror.release(CHUNKS);
    await waitFor(async () => (await row.getAttribute('data-status')) === 'ready', 'the model to be ready');
    await expect(row.getByTestId('speech-model-status').textContent()).resolves.toBe('Ready');
    await row.getByTestId('speech-model-default').waitFor();
    expect(await row.getByRole('progressbar').count()).toBe(0);
    await row.getByRole('button', { name: 'Delete' }).waitFor();
    await shootThemes(page, 'speech-models-ready', 900);

    // A model that is not there cannot be made the default: the button is not offered.
    expect(
      await section.locator('[data-model="e2e-small.en"]').getByRole('button', { name: 'Make default' }).count(),
    ).toBe(0);
  });
});
