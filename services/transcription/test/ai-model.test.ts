import type { AddressInfo } from 'node:net';
import { createTestStack, serveUnmeteredCredits, type TestStack } from '@earshot/kit/testing';
import { fileService } from '@earshot/file-service';
import { promptService } from '@earshot/prompt-service';
import { transcriptionService } from '../src';
import { fakeSpeechProvider, getTranscript, makeTones, upload, waitForStatus, words } from './helpers';

const ACME = '22222222-2222-4222-8222-222222222222';
const BURSTS = [1, 4, 7].map((start) => ({ start, length: 1 }));
const KEY = 'sk-catalogue-secret-key';

let provider: ReturnType<typeof fakeSpeechProvider>;
let stack: TestStack;
let user: string;
let host: string;
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
  user = await stack.tokenFor('USER', ACME);
  host = await stack.tokenFor('HOST_ADMIN', null);
}, 60_000);
afterAll(async () => {
  await stack.close();
  await new Promise((resolve) => provider.server.close(resolve));
});

async function configure(method: 'POST' | 'PATCH', url: string, payload: Record<string, unknown>): Promise<string> {
  const res = await stack.as(host, { method, url: `/api/ai/config${url}`, payload });
  expect(res.statusCode).toBeLessThan(300);
  await stack.settle();
  return (res.json() as { _id: string })._id;
}

test('with a speech-to-text model in AI Configuration, uploads are transcribed by its provider', async () => {
  const { port } = provider.server.address() as AddressInfo;
  const providerId = await configure('POST', '/provider', { name: 'Whisper server', baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: KEY });
  const modelId = await configure('POST', '/model', { providerId, name: 'whisper-from-config', purpose: 'speech-to-text', isDefault: true });

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

  // Disabled in AI Configuration: the next upload goes back to TRANSCRIPTION_ENGINE, without a restart.
  await configure('PATCH', `/model/${modelId}`, { enabled: false });
  provider.setMode('ok');
  const offline = await upload(stack, user, tones, 'offline.wav');
  await waitForStatus(stack, user, offline);
  expect(provider.received).toHaveLength(0);
  const status = (await stack.as(user, { method: 'GET', url: `/api/transcripts/file/${offline}` })).json() as { engine: string | null; reason: string | null };
  // The offline engine ran (or, where PocketSphinx is not installed, said so): not the provider.
  expect(status.engine === 'pocketsphinx' || /PocketSphinx/.test(status.reason ?? '')).toBe(true);
}, 120_000);

test("a provider's refused key fails the job with the provider's reason, never the key", async () => {
  const { port } = provider.server.address() as AddressInfo;
  const providerId = await configure('POST', '/provider', { name: 'Refusing server', baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: KEY });
  await configure('POST', '/model', { providerId, name: 'whisper-refused', purpose: 'speech-to-text', isDefault: true });
  provider.setMode('bad-key');
  const fileId = await upload(stack, user, tones, 'refused.wav');
  const status = await waitForStatus(stack, user, fileId);
  expect(status).toMatchObject({ status: 'failed', reason: 'The transcription provider refused the API key (401)' });
  expect(JSON.stringify(status)).not.toContain(KEY);
}, 120_000);
