import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StatusItem, TranscriptDto } from '@earshot/contracts';
import { createTestStack, multipart, type TestStack } from '@earshot/kit/testing';
import { fileService } from '@earshot/file-service';
import { billingService } from '@earshot/billing-service';
import { tenantService } from '@earshot/tenant-service';
import { transcriptionService } from '@earshot/transcription-service';
import {
  checkWhisperModel,
  WhisperHost,
  whisperModelLoads,
  wordsFromTokens,
} from '../../../services/transcription/src/engines/whisper';
import { emitted, getTranscript, tmp, waitForStatus } from './helpers';
import { ENGLISH_VOCAB, writeTinyWhisperModel } from '../../../services/transcription/test/tiny-whisper';

/** Short speech (about 1.5 s): whisper pays its 30-second window per piece whatever the length. */
function speech(text: string): Buffer {
  const path = join(tmp(), 'speech.wav');
  execFileSync('espeak-ng', ['-v', 'en-us+m1', '-s', '170', '-w', path, text]);
  return readFileSync(path);
}

test('whisper tokens become words at leading spaces, timed in seconds inside the piece, never backwards', () => {
  const words = wordsFromTokens(
    [
      { text: ' Hel', t0: 120, t1: 300 },
      { text: 'lo', t0: 300, t1: 480 },
      { text: ',', t0: 480, t1: 500 },
      { text: ' world', t0: 450, t1: 900 },
      { text: ' ', t0: 900, t1: 950 },
      { text: ' late', t0: 1900, t1: 2600 },
    ],
    2.2,
  );
  expect(words).toEqual([
    { text: 'Hello,', start: 0.12, end: 0.5 },
    { text: 'world', start: 0.5, end: 0.9 },
    { text: 'late', start: 1.9, end: 2.2 },
  ]);
});

test("a whisper word's confidence is the lowest probability of its spoken tokens; joined punctuation does not count", () => {
  const words = wordsFromTokens(
    [
      { text: ' Hel', t0: 0, t1: 200, p: 0.3 },
      { text: 'lo', t0: 200, t1: 400, p: 0.99 },
      { text: ',', t0: 400, t1: 450, p: 0.05 },
      { text: ' world', t0: 500, t1: 900, p: 0.8765 },
      { text: ' -', t0: 900, t1: 950, p: 0.2 },
      // A probability is never taken past 1 (float rounding in whisper.cpp's softmax).
      { text: ' 42', t0: 1000, t1: 1200, p: 1.0000001 },
    ],
    2,
  );
  expect(words.map(({ text, confidence }) => ({ text, confidence }))).toEqual([
    { text: 'Hello,', confidence: 0.3 },
    { text: 'world', confidence: 0.877 },
    { text: '-', confidence: 0.2 },
    { text: '42', confidence: 1 },
  ]);
});

test('a model file that is missing or not a whisper.cpp model is refused before loading, saying what to do; the vocabulary tells English-only', async () => {
  const dir = tmp();
  const model = (path: string, sizeBytes: number) => ({
    name: 'x',
    path,
    languages: 'multilingual' as const,
    sizeBytes,
  });
  await expect(checkWhisperModel(model(join(dir, 'none.bin'), 10))).rejects.toMatchObject({
    retryable: false,
    reason: "The Whisper model x is missing from this server's disk: download the model again on AI Configuration",
  });
  const other = join(dir, 'other.bin');
  writeFileSync(other, Buffer.alloc(64, 1));
  await expect(checkWhisperModel(model(other, 64))).rejects.toMatchObject({
    retryable: false,
    reason: 'The file of the Whisper model x is not a whisper.cpp model: download the model again on AI Configuration',
  });
  const english = join(dir, 'english.bin');
  const { sizeBytes } = writeTinyWhisperModel(english, { vocab: ENGLISH_VOCAB });
  await expect(checkWhisperModel(model(english, sizeBytes))).resolves.toMatchObject({ englishOnly: true });
});

test('a GPU build of the binding that is not installed fails with how to install it', () => {
  const host = new WhisperHost({ variant: 'cuda', threads: 1, timeoutMs: 1000 });
  expect(() => host.assertInstalled()).toThrow(
    /^The Whisper engine's native package @fugood\/node-whisper-linux-x64-cuda is not installed on this server: run npm install @fugood\/node-whisper-linux-x64-cuda@1\.2\.0-rc\.0 -w services\/transcription, or set WHISPER_VARIANT=cpu$/,
  );
});

/**
 * The whole path on tiny generated ggml models registered as downloaded (rows of the model store):
 * upload through the file service → queued with the engine the credit gate prices → the in-process
 * worker's whisper thread → transcript. Random weights give random words, so what is checked is the
 * plumbing (engine, model, language, timing), not the text.
 */
describe('the offline Whisper engine', () => {
  let stack: TestStack;
  let host: string;
  const companies = { english: { id: '', user: '' }, french: { id: '', user: '' } };
  const dir = tmp();
  const models = {
    multi: join(dir, 'ggml-tiny-test.bin'),
    english: join(dir, 'ggml-tiny-test.en.bin'),
    broken: join(dir, 'ggml-tiny-broken.bin'),
  };
  const audio = speech('hello one two three');

  async function register(name: string, path: string, languages: 'en' | 'multilingual', size: number): Promise<void> {
    await stack.database.query(
      `insert into transcription.speech_models (name, kind, languages, path, url, size, sha256, status)
       values ($1, 'whisper', $2, $3, 'http://127.0.0.1/none', $4, null, 'ready')`,
      [name, languages, path, size],
    );
  }
  const makeDefault = async (name: string | null) => {
    await stack.database.query('update transcription.speech_models set is_default = false where is_default');
    if (name)
      await stack.database.query('update transcription.speech_models set is_default = true where name = $1', [name]);
  };

  async function newCompany(code: string, language: string): Promise<{ id: string; user: string }> {
    const res = await stack.as(host, {
      method: 'POST',
      url: '/api/companies',
      payload: { name: `Whisper ${code}`, code, domain: code.toLowerCase(), language },
    });
    expect(res.statusCode).toBe(201);
    const id = (res.json() as { _id: string })._id;
    return { id, user: await stack.tokenFor('USER', id) };
  }

  async function upload(token: string, fields: Record<string, string> = {}): Promise<string> {
    const res = await stack.as(token, {
      method: 'POST',
      url: '/api/files/upload',
      ...multipart(fields, { name: 'speech.wav', type: 'audio/wav', data: audio }),
    });
    expect(res.statusCode).toBe(201);
    await stack.settle();
    return (res.json() as { _id: string })._id;
  }

  async function transcribed(
    token: string,
    fields: Record<string, string> = {},
  ): Promise<{ status: StatusItem; transcript: TranscriptDto; fileId: string }> {
    const fileId = await upload(token, fields);
    const status = await waitForStatus(stack, token, fileId);
    return { status, transcript: await getTranscript(stack, token, fileId), fileId };
  }

  beforeAll(async () => {
    const multi = writeTinyWhisperModel(models.multi);
    const english = writeTinyWhisperModel(models.english, { vocab: ENGLISH_VOCAB });
    copyFileSync(models.multi, models.broken);
    // Half downloaded: the catalogue's size says more than the disk holds.
    truncateSync(models.broken, Math.floor(multi.sizeBytes / 2));
    stack = await createTestStack([tenantService, billingService, fileService, transcriptionService], {
      TRANSCRIPTION_POLL_MS: '100',
      TRANSCRIPTION_RETRY_BASE_MS: '10',
      WHISPER_THREADS: '2',
    });
    host = await stack.tokenFor('HOST_ADMIN', null);
    companies.english = await newCompany('WHEN', 'en');
    companies.french = await newCompany('WHFR', 'fr');
    await register('tiny-test', models.multi, 'multilingual', multi.sizeBytes);
    await register('tiny-test.en', models.english, 'en', english.sizeBytes);
    await register('tiny-broken', models.broken, 'multilingual', multi.sizeBytes);
  }, 120_000);
  afterAll(async () => stack.close());

  test('the default model transcribes uploads with timed words and the detected language, loaded once for two jobs; priced like PocketSphinx', async () => {
    await makeDefault('tiny-test');
    const loadsBefore = whisperModelLoads();
    const { user } = companies.english;
    const first = await transcribed(user, { language: 'auto' });
    expect(first.status).toMatchObject({ status: 'completed', attempts: 1 });
    const { transcript } = first;
    expect(transcript).toMatchObject({ engine: 'whisper', model: 'tiny-test' });
    // Detected by the model (random weights detect some language): a code, stored with the transcript.
    expect(transcript.language).toMatch(/^[a-z]{2,3}$/);
    const words = transcript.metadata.speakerSegments.flatMap((s) => s.words);
    expect(words.length).toBeGreaterThan(0);
    let previous = 0;
    for (const word of words) {
      expect(word.start).toBeGreaterThanOrEqual(previous);
      expect(word.end).toBeGreaterThanOrEqual(word.start);
      expect(word.end).toBeLessThanOrEqual(transcript.metadata.duration! + 0.001);
      // The lowest probability of the word's tokens, from whisper.cpp's C API.
      expect(word.confidence).toBeGreaterThanOrEqual(0);
      expect(word.confidence).toBeLessThanOrEqual(1);
      previous = word.end;
    }
    // Queued for credits as the engine that runs on this machine (an engine price, no model id).
    expect((await emitted(stack, 'transcript.status_changed', first.fileId))[0]!.data).toMatchObject({
      status: 'pending',
      engine: 'whisper',
      modelId: null,
    });
    expect((await emitted(stack, 'transcript.completed', first.fileId))[0]!.data).toMatchObject({
      engine: 'whisper',
      modelId: null,
    });

    const second = await transcribed(user);
    expect(second.status.status).toBe('completed');
    expect(second.transcript).toMatchObject({ engine: 'whisper', model: 'tiny-test' });
    expect(whisperModelLoads() - loadsBefore).toBe(1);

    // Running it again asks the credit gate about whisper: priced (free) out of the box, not MODEL_NOT_PRICED.
    const again = await stack.as(user, {
      method: 'POST',
      url: '/api/transcripts/transcribe',
      payload: { fileId: second.fileId },
    });
    expect(again.statusCode).toBe(202);
    expect((await waitForStatus(stack, user, second.fileId)).status).toBe('completed');
    expect(whisperModelLoads() - loadsBefore).toBe(1);
  }, 300_000);

  test("an upload that names no language is recognised in its company's language", async () => {
    await makeDefault('tiny-test');
    const { status, transcript } = await transcribed(companies.french.user);
    expect(status.status).toBe('completed');
    expect(transcript).toMatchObject({ engine: 'whisper', model: 'tiny-test', language: 'fr' });
    const words = transcript.metadata.speakerSegments.flatMap((s) => s.words);
    expect(words.length).toBeGreaterThan(0);
    for (const word of words) expect(word.confidence).toEqual(expect.any(Number));
    // Named at upload, the upload's language wins over the company's.
    const named = await transcribed(companies.french.user, { language: 'lv' });
    expect(named.transcript).toMatchObject({ status: 'completed', language: 'lv' });
  }, 300_000);

  test('an English-only model refuses another language at once, with the reason; auto means English', async () => {
    await makeDefault('tiny-test.en');
    const refused = await transcribed(companies.english.user, { language: 'fr' });
    expect(refused.status).toMatchObject({
      status: 'failed',
      attempts: 1,
      reason:
        'The Whisper model tiny-test.en recognises English only: download a multilingual Whisper model on AI Configuration, or upload with language en',
    });
    // The French company's default language is refused the same way.
    expect((await transcribed(companies.french.user)).status).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('recognises English only'),
    });
    const auto = await transcribed(companies.english.user, { language: 'auto' });
    expect(auto.transcript).toMatchObject({
      status: 'completed',
      engine: 'whisper',
      model: 'tiny-test.en',
      language: 'en',
    });
  }, 300_000);

  test('a half-downloaded model is never loaded: the job fails at once saying what to do', async () => {
    await makeDefault('tiny-broken');
    const loadsBefore = whisperModelLoads();
    const { status } = await transcribed(companies.english.user);
    expect(status).toMatchObject({ status: 'failed', attempts: 1 });
    expect(status.reason).toContain('The Whisper model tiny-broken is incomplete or has changed on disk');
    expect(status.reason).toContain('download the model again on AI Configuration');
    expect(whisperModelLoads()).toBe(loadsBefore);
  }, 120_000);

  test('with no Whisper model, PocketSphinx refuses French at once with the reason', async () => {
    await makeDefault(null);
    const { status } = await transcribed(companies.english.user, { language: 'fr' });
    expect(status).toMatchObject({
      status: 'failed',
      attempts: 1,
      reason:
        'PocketSphinx recognises English only: download a multilingual Whisper model on AI Configuration, or upload with language en',
    });
    const english = await transcribed(companies.english.user);
    expect(english.transcript).toMatchObject({
      status: 'completed',
      engine: 'pocketsphinx',
      model: null,
      language: 'en',
    });
  }, 120_000);
});
