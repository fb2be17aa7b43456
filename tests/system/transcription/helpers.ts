import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventDefinition, type TranscriptDto, type StatusItem } from '@earshot/contracts';
import type { AddressInfo } from 'node:net';
import {
  buildEnvelope,
  type Database,
  type EventBus,
  type Logger,
  type ServiceContext,
  type ServiceModule,
} from '@earshot/kit';
import { createTestStack, multipart, serveUnmeteredCredits, type TestStack } from '@earshot/kit/testing';
import { fileService } from '@earshot/file-service';
import { transcriptionService, type TranscriptionConfig } from '@earshot/transcription-service';
import { saveResult } from '../../../services/transcription/src/repositories/transcripts';
import { buildSegments, speakersFor } from '../../../services/transcription/src/services/segments';
import { tmp } from '../../../services/transcription/test/tmp';

export { tmp };

const sox = (...args: string[]) => execFileSync('sox', ['-V1', ...args]);
const soxDuration = (path: string) => Number(execFileSync('soxi', ['-D', path]).toString().trim());

function speak(dir: string, name: string, voice: string, speed: number, text: string): string {
  const path = join(dir, `${name}.wav`);
  execFileSync('espeak-ng', ['-v', voice, '-s', String(speed), '-w', path, text]);
  return path;
}

export interface CallFixture {
  audio: Buffer;
  duration: number;
  /** When each side speaks, in seconds of the call. */
  agent: { start: number; end: number };
  customer: { start: number; end: number };
}

/**
 * A two-voice call: the agent (a male espeak voice) on the left channel, then the customer (a
 * female voice) on the right one after a pause, merged with `sox -M` into one stereo WAV.
 * Words picked for PocketSphinx to get right from espeak: numbers and simple phrases.
 */
export function makeCall(): CallFixture {
  const dir = tmp();
  const agent = speak(dir, 'agent', 'en-us+m1', 170, 'hello. one two three four five six seven. good morning.');
  const customer = speak(
    dir,
    'customer',
    'en-us+f5',
    150,
    'thank you very much. four five six seven eight nine. good bye.',
  );
  const agentLength = soxDuration(agent);
  const customerLength = soxDuration(customer);
  const agentStart = 0.5;
  const customerStart = agentStart + agentLength + 0.7;
  const total = customerStart + customerLength + 0.5;
  const left = join(dir, 'left.wav');
  const right = join(dir, 'right.wav');
  sox(agent, left, 'pad', String(agentStart), String(total - agentStart - agentLength));
  sox(customer, right, 'pad', String(customerStart), String(total - customerStart - customerLength));
  const call = join(dir, 'call.wav');
  sox('-M', left, right, call);
  return {
    audio: readFileSync(call),
    duration: soxDuration(call),
    agent: { start: agentStart, end: agentStart + agentLength },
    customer: { start: customerStart, end: customerStart + customerLength },
  };
}

/** A mono recording with two long pauses, encoded as FLAC (a compressed upload to decode). */
export function makeMono(): { audio: Buffer; duration: number } {
  const dir = tmp();
  const first = speak(dir, 'a', 'en-us+m1', 170, 'one two three four five six seven.');
  const second = speak(dir, 'b', 'en-us+m1', 170, 'four five six seven. good morning.');
  const padded = [join(dir, 'a2.wav'), join(dir, 'b2.wav')];
  sox(first, padded[0]!, 'pad', '0.5', '1.5');
  sox(second, padded[1]!, 'pad', '0.5', '0.5');
  const wav = join(dir, 'mono.wav');
  sox(padded[0]!, padded[1]!, wav);
  const flac = join(dir, 'mono.flac');
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', wav, '-f', 'flac', flac]);
  return { audio: readFileSync(flac), duration: soxDuration(wav) };
}

/** Tone bursts at known times (no speech): for engines that answer with what they detect. */
export function makeTones(bursts: { start: number; length: number }[], total: number): Buffer {
  const dir = tmp();
  const parts = bursts.map((b, i) => {
    const path = join(dir, `t${i}.wav`);
    sox(
      '-n',
      '-r',
      '16000',
      '-c',
      '1',
      '-b',
      '16',
      path,
      'synth',
      String(b.length),
      'sine',
      '440',
      'vol',
      '0.5',
      'pad',
      String(b.start),
      String(Math.max(0, total - b.start - b.length)),
    );
    return path;
  });
  const out = join(dir, 'tones.wav');
  if (parts.length === 1) sox(parts[0]!, out);
  else sox('-m', ...parts, out);
  return readFileSync(out);
}

/** POST /api/files/upload with one file, as stack.as() options. */
export function uploadRequest(data: Buffer, filename: string) {
  return {
    method: 'POST' as const,
    url: '/api/files/upload',
    ...multipart({}, { name: filename, type: 'application/octet-stream', data }),
  };
}

/** Uploads through the file service and waits for its file.uploaded to reach the transcription service. */
export async function upload(stack: TestStack, token: string, data: Buffer, filename: string): Promise<string> {
  const res = await stack.as(token, uploadRequest(data, filename));
  if (res.statusCode !== 201) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  await stack.settle();
  return (res.json() as { _id: string })._id;
}

export const FINAL = ['completed', 'failed'];

/**
 * Polls GET /transcripts/status until the file's job reaches one of `statuses`. Bounded by a count
 * of polls, generous for a slow machine; the test then asserts on what it got, not on time.
 */
export async function waitForStatus(
  stack: TestStack,
  token: string,
  fileId: string,
  statuses = FINAL,
  polls = 1200,
): Promise<StatusItem> {
  let last: StatusItem | undefined;
  for (let i = 0; i < polls; i++) {
    const res = await stack.as(token, { method: 'GET', url: `/api/transcripts/status?fileIds=${fileId}` });
    last = (res.json() as StatusItem[])[0];
    if (last && statuses.includes(last.status)) {
      await stack.settle();
      return last;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`file ${fileId} never reached ${statuses.join('/')}; last status ${JSON.stringify(last)}`);
}

export async function getTranscript(stack: TestStack, token: string, fileId: string): Promise<TranscriptDto> {
  const res = await stack.as(token, { method: 'GET', url: `/api/transcripts/file/${fileId}` });
  if (res.statusCode !== 200) throw new Error(`GET transcript: ${res.statusCode} ${res.body}`);
  return res.json() as TranscriptDto;
}

/** Events this service wrote to its outbox (what it published), oldest first. */
export async function emitted(
  stack: TestStack,
  type: string,
  fileId?: string,
): Promise<{ data: Record<string, unknown>; actor: Record<string, unknown> }[]> {
  const rows = await stack.database.query<{
    envelope: { data: Record<string, unknown>; actor: Record<string, unknown> } | string;
  }>(`select envelope from transcription.outbox where envelope->>'type' = $1 order by seq`, [type]);
  return rows
    .map((r) =>
      typeof r.envelope === 'string'
        ? (JSON.parse(r.envelope) as { data: Record<string, unknown>; actor: Record<string, unknown> })
        : r.envelope,
    )
    .filter((e) => !fileId || e.data.fileId === fileId);
}

/** Words of a sentence, one every 0.4 s from `at` (0.3 s long each). */
export const spoken = (sentence: string, at: number) =>
  sentence.split(' ').map((text, i) => ({ text, start: at + i * 0.4, end: at + i * 0.4 + 0.3 }));

/** A recognised two-speaker call as the worker saves it (no audio recognised), from each speaker's words. */
export function twoSpeakerResult(turns: { speakerId: string; words: ReturnType<typeof spoken> }[], duration: number) {
  return {
    engine: 'test',
    duration,
    speakers: speakersFor(2),
    segments: buildSegments(turns, duration, `r${randomUUID().slice(0, 6)}`),
    peaks: { version: 1 as const, duration, pointsPerSecond: 10, length: 0, data: [] },
  };
}

export const words = (t: TranscriptDto, speakerId?: string) =>
  t.metadata.speakerSegments.filter((s) => !speakerId || s.speakerId === speakerId).flatMap((s) => s.words);

interface Received {
  authorization?: string;
  fields: Record<string, string[]>;
  fileBytes: number;
}

/** `speakers`: verbose JSON whose segments carry a speaker (bursts alternate SPEAKER_00 / SPEAKER_01) and whose words carry a probability. */
type Mode = 'ok' | 'busy-once' | 'bad-key' | 'speakers';

/** The words of each segment of a diarized answer (one segment per burst, speakers A and B by turns). */
export const DIARIZED_TEXT = 'hello there my friend';

/**
 * A stand-in for an OpenAI-compatible server: POST /v1/audio/transcriptions (multipart). It
 * "hears" the tone bursts in the WAV it receives (10 ms frames above a level) and answers with
 * one word per burst, timed from the start of the piece it got, in verbose JSON. A model whose
 * name contains `diarize` answers only `diarized_json` (as OpenAI's does): one segment per burst
 * with four words and no word times.
 */
export function fakeSpeechProvider() {
  const received: Received[] = [];
  let mode: Mode = 'ok';
  let busyAnswered = false;

  function parseMultipart(
    req: IncomingMessage,
    body: Buffer,
  ): { fields: Record<string, string[]>; file: Buffer | null } {
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
    const samples = new Int16Array(
      wav.buffer.slice(wav.byteOffset + dataAt, wav.byteOffset + wav.length - ((wav.length - dataAt) % 2)),
    );
    const frame = Math.round(rate / 100);
    const found: { word: string; start: number; end: number }[] = [];
    let open: number | null = null;
    for (let f = 0; f * frame < samples.length; f++) {
      let peak = 0;
      for (let i = f * frame; i < Math.min(samples.length, (f + 1) * frame); i++)
        peak = Math.max(peak, Math.abs(samples[i]!));
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
      if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions' || !file)
        return reply(404, { error: { message: 'no such route' } });
      if (mode === 'bad-key')
        return reply(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
      if (mode === 'busy-once' && !busyAnswered) {
        busyAnswered = true;
        return reply(503, { error: { message: 'overloaded, try later' } });
      }
      const heard = hear(file);
      const diarizing = fields.model?.[0]?.includes('diarize');
      if (diarizing !== (fields.response_format?.[0] === 'diarized_json')) {
        return reply(400, {
          error: {
            message: `response_format '${fields.response_format?.[0]}' is not compatible with model '${fields.model?.[0]}'`,
          },
        });
      }
      if (diarizing) {
        return reply(200, {
          task: 'transcribe',
          duration: (file.length - 44) / 32000,
          text: heard.map(() => DIARIZED_TEXT).join(' '),
          segments: heard.map((w, id) => ({
            type: 'transcript.text.segment',
            id: `seg_${id}`,
            start: w.start,
            end: w.end,
            speaker: id % 2 ? 'B' : 'A',
            text: ` ${DIARIZED_TEXT}`,
          })),
        });
      }
      if (mode === 'speakers') {
        return reply(200, {
          task: 'transcribe',
          language: 'english',
          duration: (file.length - 44) / 32000,
          text: heard.map((w) => w.word).join(' '),
          words: heard.map((w, id) => ({ ...w, probability: 0.5 + id / 100, speaker: null })),
          segments: heard.map((w, id) => ({
            id,
            start: w.start,
            end: w.end,
            text: ` ${w.word}`,
            words: null,
            speaker: `SPEAKER_0${id % 2}`,
          })),
        });
      }
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

/** Starts a fake provider's server on a free loopback port; answers its OpenAI-compatible base URL. */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

/**
 * A stand-in OpenAI-compatible speech provider that answers `said`, one word every 0.2 s from
 * 0.1 s, whatever audio it is sent (listen with listenOnLoopback).
 */
export function wordsProvider(said: readonly string[]): Server {
  const words = said.map((word, i) => ({ word, start: 0.1 + i * 0.2, end: 0.28 + i * 0.2 }));
  return createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          task: 'transcribe',
          language: 'english',
          duration: 0.2 * said.length + 0.2,
          text: said.join(' '),
          words,
          segments: [],
        }),
      );
    });
  });
}

/**
 * The file and transcription services transcribing at the OpenAI-compatible provider `baseUrl`
 * (`env` adds or overrides settings), with `services` beside them in the same process (the audit
 * log, the chat and prompt services' copies). No tenant service in this stack: nothing here is metered.
 */
export async function speechProviderStack(
  baseUrl: string,
  env: Record<string, string> = {},
  logger?: Logger,
  services: readonly ServiceModule[] = [],
): Promise<TestStack> {
  const stack = await createTestStack(
    [fileService, transcriptionService, ...services],
    {
      TRANSCRIPTION_ENGINE: 'openai',
      OPENAI_BASE_URL: baseUrl,
      OPENAI_API_KEY: 'sk-test',
      TRANSCRIPTION_MODEL: 'whisper-test',
      TRANSCRIPTION_POLL_MS: '50',
      ...env,
    },
    logger ? { logger } : {},
  );
  serveUnmeteredCredits(stack.database);
  return stack;
}

/**
 * The text with generated ids blanked: event and row UUIDs and the `s-`/`w-` ids of segments and
 * words (`s-<run>-n`, 8 hex; `s-e<edit>-n`, 10 hex) are random hex, which now and then holds a
 * digit group a redaction test looks for (a card's "0343" in "…e03437"). What must not leak is
 * what was said, and that is all that is left to match.
 */
export function idsOut(text: string): string {
  return text
    .replace(/\b[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}\b/gi, '<id>')
    .replace(/\b[sw]-(?:[0-9a-f]{8}|e[0-9a-f]{10})-\d+\b/g, '<id>');
}

/**
 * Gives a stored transcript `count` segments of two words each, written by the database itself (a
 * huge transcript without building it in this process): `word<i> again`, two seconds apart.
 */
export async function makeHugeTranscript(database: Database, fileId: string, count: number): Promise<void> {
  await database.query(
    `update transcription.transcripts set segments = (
       select jsonb_agg(jsonb_build_object(
         '_id', 's-' || i, 'speakerId', 'speaker_' || (i % 2), 'start', i * 2, 'end', i * 2 + 1.5,
         'text', 'word' || i || ' again',
         'words', jsonb_build_array(
           jsonb_build_object('_id', 'w-' || i || '-0', 'text', 'word' || i, 'start', i * 2, 'end', i * 2 + 0.6),
           jsonb_build_object('_id', 'w-' || i || '-1', 'text', 'again', 'start', i * 2 + 0.8, 'end', i * 2 + 1.5))
       ) order by i)
       from generate_series(0, $2::int - 1) as i)
     where file_id = $1`,
    [fileId, count],
  );
}

/**
 * A recording as the file service announces it (file.uploaded; no audio is stored), then its
 * transcript `t` written as the worker writes one, completed: a transcript to read or export, fast.
 * `product`: a test stack or the all-in-one product.
 */
export async function storedTranscript(
  product: { bus: EventBus; database: Database; settle(): Promise<void> },
  ctx: ServiceContext<TranscriptionConfig>,
  companyId: string,
  name: string,
  t: TranscriptDto,
): Promise<string> {
  const fileId = randomUUID();
  const envelope = buildEnvelope({
    type: 'file.uploaded',
    companyId,
    actor: { type: 'system', id: null },
    data: {
      id: fileId,
      storageKey: fileId,
      originalName: name,
      mimeType: 'audio/wav',
      size: 1,
      clientId: null,
      uploadedBy: null,
    },
  });
  await product.bus.publish([{ topic: eventDefinition('file.uploaded').topic, key: companyId, envelope }]);
  await product.settle();
  const { speakers, speakerSegments: segments, duration } = t.metadata;
  await ctx.transact((tx) =>
    saveResult(tx, fileId, {
      engine: t.engine ?? 'test',
      duration: duration ?? 0,
      speakers,
      segments,
      peaks: { version: 1, duration: duration ?? 0, pointsPerSecond: 10, length: 0, data: [] },
    }),
  );
  await product.database.query(`update transcription.jobs set status = 'completed' where file_id = $1`, [fileId]);
  return fileId;
}
