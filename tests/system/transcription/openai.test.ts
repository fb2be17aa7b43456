import type { TestStack } from '@earshot/kit/testing';
import {
  emitted,
  fakeSpeechProvider,
  getTranscript,
  listenOnLoopback,
  makeTones,
  speechProviderStack,
  upload,
  waitForStatus,
  words,
} from './helpers';

const ACME = '11111111-1111-4111-8111-111111111111';
const LIMIT = 200_000;

const BURSTS = [1, 4, 7, 10, 13, 16, 19].map((start) => ({ start, length: 1 }));

let provider: ReturnType<typeof fakeSpeechProvider>;
let stack: TestStack;
let user: string;
const tones = makeTones(BURSTS, 21);

beforeAll(async () => {
  provider = fakeSpeechProvider();
  stack = await speechProviderStack(await listenOnLoopback(provider.server), {
    OPENAI_API_KEY: 'sk-test-secret-key',
    OPENAI_MAX_UPLOAD_BYTES: String(LIMIT),
    TRANSCRIPTION_RETRY_BASE_MS: '50',
  });
  user = await stack.tokenFor('USER', ACME);
}, 60_000);
afterAll(async () => {
  await stack.close();
  await new Promise((resolve) => provider.server.close(resolve));
});

test('audio over the provider limit is split at silences and the pieces are stitched with corrected offsets', async () => {
  provider.setMode('ok');
  const fileId = await upload(stack, user, tones, 'tones.wav');
  expect((await waitForStatus(stack, user, fileId)).status).toBe('completed');
  // Several requests, each under the limit, asking for verbose JSON with word and segment times.
  expect(provider.received.length).toBeGreaterThanOrEqual(4);
  for (const request of provider.received) {
    expect(request.fileBytes).toBeLessThanOrEqual(LIMIT);
    expect(request.authorization).toBe('Bearer sk-test-secret-key');
    expect(request.fields.model).toEqual(['whisper-test']);
    expect(request.fields.response_format).toEqual(['verbose_json']);
    expect(request.fields['timestamp_granularities[]']?.sort()).toEqual(['segment', 'word']);
  }
  const t = await getTranscript(stack, user, fileId);
  expect(t.engine).toBe('openai');
  const heard = words(t);
  // Every burst exactly once (none lost or doubled at a cut), at its time in the whole file.
  expect(heard).toHaveLength(BURSTS.length);
  heard.forEach((word, i) => {
    expect(word.text).toBe('tone');
    expect(Math.abs(word.start - BURSTS[i]!.start)).toBeLessThan(0.05);
    expect(Math.abs(word.end - (BURSTS[i]!.start + BURSTS[i]!.length))).toBeLessThan(0.05);
  });
  // Mono: one speaker, a new segment after each pause longer than 0.8 s.
  expect(t.metadata.speakerSegments).toHaveLength(BURSTS.length);
  expect(new Set(t.metadata.speakerSegments.map((s) => s.speakerId))).toEqual(new Set(['speaker_0']));
}, 120_000);

test('a busy provider is retried with back-off, then the job completes', async () => {
  provider.setMode('busy-once');
  const fileId = await upload(stack, user, tones, 'busy.wav');
  expect((await waitForStatus(stack, user, fileId)).status).toBe('completed');
  const history = (await emitted(stack, 'transcript.status_changed', fileId)).map((e) => [
    e.data.status,
    e.data.attempt,
    e.data.reason ?? null,
  ]);
  expect(history).toEqual([
    ['pending', 0, null],
    ['processing', 1, null],
    ['pending', 1, expect.stringMatching(/^The transcription provider is busy or failing \(503/)],
    ['processing', 2, null],
    ['completed', 2, null],
  ]);
  expect(words(await getTranscript(stack, user, fileId))).toHaveLength(BURSTS.length);
}, 120_000);

test('a refused API key fails the job at once with a reason that does not contain the key', async () => {
  provider.setMode('bad-key');
  const fileId = await upload(stack, user, tones, 'refused.wav');
  const status = await waitForStatus(stack, user, fileId);
  expect(status).toMatchObject({ status: 'failed', reason: 'The transcription provider refused the API key (401)' });
  // The attempt that met the 401 is the last: a refused key is never retried. (A busy machine may
  // fail an earlier attempt for another reason, which is retried as it should be.)
  const history = (await emitted(stack, 'transcript.status_changed', fileId)).map((e) => [
    e.data.status,
    e.data.attempt,
    e.data.reason ?? null,
  ]);
  expect(history.slice(-2)).toEqual([
    ['processing', status.attempts, null],
    ['failed', status.attempts, 'The transcription provider refused the API key (401)'],
  ]);
  expect(history.filter(([state, , reason]) => state === 'pending' && String(reason).includes('401'))).toEqual([]);
  const everything = JSON.stringify(await emitted(stack, 'transcript.status_changed'));
  expect(everything).not.toContain('sk-test-secret-key');
}, 120_000);
