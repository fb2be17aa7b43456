import type { AddressInfo } from 'node:net';
import type { Envelope } from '@earshot/contracts';
import { createTestStack, serveUnmeteredCredits, type TestStack } from '@earshot/kit/testing';
import { fileService } from '@earshot/file-service';
import { promptService } from '@earshot/prompt-service';
import { transcriptionService } from '@earshot/transcription-service';
import { fakeSpeechProvider, getTranscript, makeTones, upload, waitForStatus, words } from './helpers';

const ACME = '22222222-2222-4222-8222-222222222222';
const BURSTS = [1, 4, 7].map((start) => ({ start, length: 1 }));
const KEY = 'sk-catalogue-secret-key';

let provider: ReturnType<typeof fakeSpeechProvider>;
let stack: TestStack;
let user: string;
let host: string;
const published: Envelope[] = [];
const tones = makeTones(BURSTS, 9);

beforeAll(async () => {
  provider = fakeSpeechProvider();
  await new Promise<void>((resolve) => provider.server.listen(0, '127.0.0.1', resolve));
  // TRANSCRIPTION_ENGINE stays the offline default: only AI Configuration points at the provider.
  stack = await createTestStack([fileService, transcriptionService, promptService], {
    AI_ALLOW_PRIVATE_URLS: 'true',
    TRANSCRIPTION_POLL_MS: '50',
  });
  // No tenant service in this stack: nothing here is metered.
  serveUnmeteredCredits(stack.database);
  await stack.bus.subscribe({
    group: 'spy',
    topics: ['earshot.transcription'],
    handle: async (e) => void published.push(e),
  });
  user = await stack.tokenFor('USER', ACME);
  host = await stack.tokenFor('HOST_ADMIN', null);
}, 60_000);
afterAll(async () => {
  await stack.close();
  await new Promise((resolve) => provider.server.close(resolve));
});

/** What credits learn of a file's transcription: each time it was queued, and its completion. */
const queuedOf = (fileId: string) =>
  published
    .filter(
      (e) =>
        e.type === 'transcript.status_changed' &&
        e.data.fileId === fileId &&
        e.data.status === 'pending' &&
        e.data.attempt === 0,
    )
    .map((e) => e.data);
const completedOf = (fileId: string) =>
  published.find((e) => e.type === 'transcript.completed' && e.data.fileId === fileId)?.data;

async function configure(method: 'POST' | 'PATCH', url: string, payload: Record<string, unknown>): Promise<string> {
  const res = await stack.as(host, { method, url: `/api/ai/config${url}`, payload });
  expect(res.statusCode).toBeLessThan(300);
  await stack.settle();
  return (res.json() as { _id: string })._id;
}

test('with a speech-to-text model in AI Configuration, uploads are transcribed by its provider', async () => {
  const { port } = provider.server.address() as AddressInfo;
  const providerId = await configure('POST', '/provider', {
    name: 'Whisper server',
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey: KEY,
  });
  const modelId = await configure('POST', '/model', {
    providerId,
    name: 'whisper-from-config',
    purpose: 'speech-to-text',
    isDefault: true,
  });

  const fileId = await upload(stack, user, tones, 'configured.wav');
  expect((await waitForStatus(stack, user, fileId)).status).toBe('completed');
  expect(provider.received.length).toBeGreaterThan(0);
  for (const request of provider.received) {
    expect(request.authorization).toBe(`Bearer ${KEY}`);
    expect(request.fields.model).toEqual(['whisper-from-config']);
  }
  const transcript = await getTranscript(stack, user, fileId);
  expect(transcript.engine).toBe('openai');
  expect(words(transcript).map((w) => w.text)).toEqual(['tone', 'tone', 'tone']);
  // Credits reserve the 9 seconds the upload's header announced at the model's price, and charge its model.
  expect(queuedOf(fileId)).toEqual([expect.objectContaining({ estimatedSeconds: 9, engine: 'openai', modelId })]);
  expect(completedOf(fileId)).toMatchObject({ engine: 'openai', modelId, duration: expect.closeTo(9, 1) });

  // Disabled in AI Configuration: the next upload goes back to TRANSCRIPTION_ENGINE, without a restart.
  await configure('PATCH', `/model/${modelId}`, { enabled: false });
  provider.setMode('ok');
  const offline = await upload(stack, user, tones, 'offline.wav');
  await waitForStatus(stack, user, offline);
  expect(provider.received).toHaveLength(0);
  const status = (await stack.as(user, { method: 'GET', url: `/api/transcripts/file/${offline}` })).json() as {
    engine: string | null;
    reason: string | null;
  };
  // The offline engine ran (or, where PocketSphinx is not installed, said so): not the provider.
  expect(status.engine === 'pocketsphinx' || /PocketSphinx/.test(status.reason ?? '')).toBe(true);
  expect(queuedOf(offline)).toEqual([
    expect.objectContaining({ estimatedSeconds: 9, engine: 'pocketsphinx', modelId: null }),
  ]);
  if (status.engine) expect(completedOf(offline)).toMatchObject({ engine: 'pocketsphinx', modelId: null });

  // Run again, it is queued again for what the first run measured, with the engine of now.
  const again = await stack.as(user, { method: 'POST', url: '/api/transcripts/transcribe', payload: { fileId } });
  expect(again.statusCode).toBe(202);
  await stack.settle();
  expect(queuedOf(fileId)).toHaveLength(2);
  expect(queuedOf(fileId)[1]).toEqual(
    expect.objectContaining({ estimatedSeconds: transcript.metadata.duration, engine: 'pocketsphinx', modelId: null }),
  );
  await waitForStatus(stack, user, fileId);
}, 120_000);

test("a provider's refused key fails the job with the provider's reason, never the key", async () => {
  const { port } = provider.server.address() as AddressInfo;
  const providerId = await configure('POST', '/provider', {
    name: 'Refusing server',
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey: KEY,
  });
  await configure('POST', '/model', {
    providerId,
    name: 'whisper-refused',
    purpose: 'speech-to-text',
    isDefault: true,
  });
  provider.setMode('bad-key');
  const fileId = await upload(stack, user, tones, 'refused.wav');
  const status = await waitForStatus(stack, user, fileId);
  expect(status).toMatchObject({ status: 'failed', reason: 'The transcription provider refused the API key (401)' });
  expect(JSON.stringify(status)).not.toContain(KEY);
}, 120_000);
