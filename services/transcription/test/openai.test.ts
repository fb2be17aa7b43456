import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { fileService } from '@earshot/file-service';
import { transcriptionService } from '../src';
import { emitted, getTranscript, makeTones, upload, waitForStatus, words } from './helpers';

const ACME = '11111111-1111-4111-8111-111111111111';
const LIMIT = 200_000;

interface Received {
  authorization?: string;
  fields: Record<string, string[]>;
  fileBytes: number;
}

type Mode = 'ok' | 'busy-once' | 'bad-key';

/**
 * A stand-in for an OpenAI-compatible server: POST /v1/audio/transcriptions (multipart). It
 * "hears" the tone bursts in the WAV it receives (10 ms frames above a level) and answers with
 * one word per burst, timed from the start of the piece it got, in verbose JSON.
 */
function fakeProvider() {
  const received: Received[] = [];
  let mode: Mode = 'ok';
  let busyAnswered = false;

  function parseMultipart(req: IncomingMessage, body: Buffer): { fields: Record<string, string[]>; file: Buffer | null } {
    const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(req.headers['content-type'] ?? '');
    const marker = Buffer.from(`--${boundary?.[1] ?? boundary?.[2]}`);
    const fields: Record<string, string[]> = {};
    let file: Buffer | null = null;
    let at = body.indexOf(marker);
    while (at >= 0) {
      const next = body.indexOf(marker, at + marker.length);
      if (next < 0) break;
      const part = body.subarray(at + marker.length + 2, next - 2);
      const split = part.indexOf('\r\n\r\n');
      const head = part.subarray(0, split).toString();
      const content = part.subarray(split + 4);
      const name = /name="([^"]+)"/.exec(head)?.[1] ?? '';
      if (/filename=/.test(head)) file = content;
      else (fields[name] ??= []).push(content.toString());
      at = next;
    }
    return { fields, file };
  }

  function hear(wav: Buffer) {
    const dataAt = wav.indexOf('data') + 8;
    const rate = wav.readUInt32LE(24);
    const samples = new Int16Array(wav.buffer.slice(wav.byteOffset + dataAt, wav.byteOffset + wav.length - ((wav.length - dataAt) % 2)));
    const frame = Math.round(rate / 100);
    const found: { word: string; start: number; end: number }[] = [];
    let open: number | null = null;
    for (let f = 0; f * frame < samples.length; f++) {
      let peak = 0;
      for (let i = f * frame; i < Math.min(samples.length, (f + 1) * frame); i++) peak = Math.max(peak, Math.abs(samples[i]!));
      const loud = peak > 500;
      if (loud && open === null) open = f;
      if (!loud && open !== null) {
        found.push({ word: 'tone', start: open / 100, end: f / 100 });
        open = null;
      }
    }
    if (open !== null) found.push({ word: 'tone', start: open / 100, end: samples.length / rate });
    return found;
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const { fields, file } = parseMultipart(req, body);
      received.push({ authorization: req.headers.authorization, fields, fileBytes: file?.length ?? 0 });
      const reply = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions' || !file) return reply(404, { error: { message: 'no such route' } });
      if (mode === 'bad-key') return reply(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
      if (mode === 'busy-once' && !busyAnswered) {
        busyAnswered = true;
        return reply(503, { error: { message: 'overloaded, try later' } });
      }
      const heard = hear(file);
      reply(200, {
        task: 'transcribe',
        language: 'english',
        duration: (file.length - 44) / 32000,
        text: heard.map((w) => w.word).join(' '),
        words: heard,
        segments: heard.map((w, id) => ({ id, start: w.start, end: w.end, text: ` ${w.word}` })),
      });
    });
  });
  return {
    server,
    received,
    setMode(next: Mode) {
      mode = next;
      busyAnswered = false;
      received.length = 0;
    },
  };
}

const BURSTS = [1, 4, 7, 10, 13, 16, 19].map((start) => ({ start, length: 1 }));

let provider: ReturnType<typeof fakeProvider>;
let stack: TestStack;
let user: string;
const tones = makeTones(BURSTS, 21);

beforeAll(async () => {
  provider = fakeProvider();
  await new Promise<void>((resolve) => provider.server.listen(0, '127.0.0.1', resolve));
  const { port } = provider.server.address() as AddressInfo;
  stack = await createTestStack([fileService, transcriptionService], {
    TRANSCRIPTION_ENGINE: 'openai',
    OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
    OPENAI_API_KEY: 'sk-test-secret-key',
    TRANSCRIPTION_MODEL: 'whisper-test',
    OPENAI_MAX_UPLOAD_BYTES: String(LIMIT),
    TRANSCRIPTION_RETRY_BASE_MS: '50',
    TRANSCRIPTION_POLL_MS: '50',
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
  const history = (await emitted(stack, 'transcript.status_changed', fileId)).map((e) => [e.data.status, e.data.attempt, e.data.reason ?? null]);
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
  expect(status).toMatchObject({ status: 'failed', attempts: 1, reason: 'The transcription provider refused the API key (401)' });
  const everything = JSON.stringify(await emitted(stack, 'transcript.status_changed'));
  expect(everything).not.toContain('sk-test-secret-key');
}, 120_000);
