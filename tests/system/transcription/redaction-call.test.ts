import { execFileSync, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventDefinition, SYSTEM_ACTOR, type CompanyPolicies, type Envelope } from '@earshot/contracts';
import { buildEnvelope } from '@earshot/kit';
import type { TestStack } from '@earshot/kit/testing';
import {
  emitted,
  getTranscript,
  idsOut,
  listenOnLoopback,
  speechProviderStack,
  tmp,
  upload,
  waitForStatus,
} from './helpers';

/**
 * Redaction end to end: a generated stereo call (espeak-ng) in which the customer reads a
 * Luhn-valid card number, a CVV and an e-mail address, in English and in French, transcribed by a
 * stand-in OpenAI-compatible provider that answers the words the script says, timed where the
 * script put them. With policy text_audio nothing stored, published, searched or exported holds the
 * card, and the stored audio is silent over it.
 */

const ACME = '11111111-1111-4111-8111-111111111111';
const CARD = '4539148803436467';

interface Piece {
  text: string;
  /** The words the provider answers for this piece (spread evenly over its audio). */
  words: string[];
}

interface Script {
  voice: string;
  agent: Piece[];
  customer: Piece[];
  /** Words that must appear nowhere once redacted. */
  secret: RegExp;
}

const digitsAsWords = (words: string[]) => CARD.split('').map((d) => words[Number(d)]!);
const FR_DIGITS = ['zéro', 'un', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf'];

const SCRIPTS: Record<'en' | 'fr', Script> = {
  en: {
    voice: 'en-us',
    agent: [
      {
        text: 'thank you for calling, how can I help',
        words: ['thank', 'you', 'for', 'calling,', 'how', 'can', 'I', 'help?'],
      },
    ],
    customer: [
      { text: 'my card number is', words: ['My', 'card', 'number', 'is'] },
      { text: '4539 1488 0343 6467', words: ['4539', '1488', '0343', '6467.'] },
      { text: 'the security code is', words: ['The', 'security', 'code', 'is'] },
      { text: 'nine one seven', words: ['nine', 'one', 'seven.'] },
      { text: 'my email is', words: ['My', 'email', 'is'] },
      { text: 'john at example dot com', words: ['john', 'at', 'example', 'dot', 'com.'] },
    ],
    secret: /4539|1488|0343|6467|\bnine one seven\b|john|example/i,
  },
  fr: {
    voice: 'fr',
    agent: [
      { text: 'bonjour, comment puis-je vous aider', words: ['Bonjour,', 'comment', 'puis-je', 'vous', 'aider ?'] },
    ],
    customer: [
      { text: 'ma carte est', words: ['Ma', 'carte', 'est'] },
      { text: digitsAsWords(FR_DIGITS).join(' '), words: digitsAsWords(FR_DIGITS) },
      { text: 'le cryptogramme est', words: ['Le', 'cryptogramme', 'est'] },
      { text: 'neuf un sept', words: ['neuf', 'un', 'sept.'] },
      { text: 'mon adresse est', words: ['Mon', 'adresse', 'est'] },
      { text: 'jean arobase exemple point fr', words: ['jean', 'arobase', 'exemple', 'point', 'fr.'] },
    ],
    secret: /\b(quatre|cinq|trois|neuf|huit|zéro|sept|jean|exemple|arobase)\b/i,
  },
};

interface TimedWord {
  word: string;
  start: number;
  end: number;
}

interface Call {
  audio: Buffer;
  agent: TimedWord[];
  customer: TimedWord[];
  /** Where the card number is said, in seconds of the call. */
  card: { start: number; end: number };
  customerStart: number;
}

const soxDuration = (path: string) => Number(execFileSync('soxi', ['-D', path]).toString().trim());

/** Speaks each piece, lays them one after another with pauses on one channel, and times the provider's words inside them. */
function side(
  dir: string,
  name: string,
  voice: string,
  pieces: Piece[],
  offset: number,
): { path: string; words: TimedWord[]; spans: { start: number; end: number }[]; end: number } {
  const parts: string[] = [];
  const words: TimedWord[] = [];
  const spans: { start: number; end: number }[] = [];
  let at = offset;
  pieces.forEach((piece, i) => {
    const path = join(dir, `${name}-${i}.wav`);
    execFileSync('espeak-ng', ['-v', voice, '-s', '150', '-w', path, piece.text]);
    const length = soxDuration(path);
    const step = length / piece.words.length;
    piece.words.forEach((word, k) => words.push({ word, start: at + k * step, end: at + (k + 1) * step - 0.02 }));
    spans.push({ start: at, end: at + length });
    parts.push(path);
    at += length + 0.6;
  });
  const path = join(dir, `${name}.wav`);
  // Silence before the first piece and 0.6 s between pieces, at espeak's rate.
  const rate = execFileSync('soxi', ['-r', parts[0]!]).toString().trim();
  const gap = join(dir, `${name}-gap.wav`);
  execFileSync('sox', ['-n', '-r', rate, '-c', '1', '-b', '16', gap, 'trim', '0', '0.6']);
  const lead = join(dir, `${name}-lead.wav`);
  execFileSync('sox', ['-n', '-r', rate, '-c', '1', '-b', '16', lead, 'trim', '0', String(offset)]);
  execFileSync('sox', [lead, ...parts.flatMap((p, i) => (i ? [gap, p] : [p])), path]);
  return { path, words, spans, end: at };
}

function makeCall(script: Script): Call {
  const dir = tmp();
  const agent = side(dir, 'agent', script.voice, script.agent, 0.5);
  const customer = side(dir, 'customer', script.voice, script.customer, agent.end + 0.5);
  const total = customer.end + 0.5;
  const pad = (path: string, out: string) =>
    execFileSync('sox', [path, out, 'pad', '0', String(Math.max(0, total - soxDuration(path)))]);
  const left = join(dir, 'left.wav');
  const right = join(dir, 'right.wav');
  pad(agent.path, left);
  pad(customer.path, right);
  // Both channels the same length, then merged into one stereo call.
  const call = join(dir, 'call.wav');
  execFileSync('sox', ['-M', left, right, call, 'trim', '0', String(total)]);
  return {
    audio: readFileSync(call),
    agent: agent.words,
    customer: customer.words,
    card: customer.spans[1]!,
    customerStart: customer.spans[0]!.start,
  };
}

/**
 * An OpenAI-compatible transcription server that knows the call: each channel it is sent is the
 * agent's or the customer's (the customer's is loud once the customer speaks), and it answers
 * that side's words.
 */
function scriptedProvider() {
  let call: Call | null = null;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const riff = body.indexOf('RIFF');
      const wav = body.subarray(riff);
      const rate = wav.readUInt32LE(24);
      const dataAt = wav.indexOf('data') + 8;
      const at = dataAt + Math.floor(((call!.card.start + call!.card.end) / 2) * rate) * 2;
      let loud = 0;
      for (let i = 0; i < rate / 10 && at + i * 2 + 1 < wav.length; i++)
        loud = Math.max(loud, Math.abs(wav.readInt16LE(at + i * 2)));
      const words = loud > 500 ? call!.customer : call!.agent;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          task: 'transcribe',
          language: 'english',
          duration: (wav.length - 44) / (rate * 2),
          text: words.map((w) => w.word).join(' '),
          words,
          segments: [],
        }),
      );
    });
  });
  return { server, use: (next: Call) => void (call = next) };
}

let stack: TestStack;
let provider: ReturnType<typeof scriptedProvider>;
let user: string;

async function publish(envelope: Envelope) {
  await stack.bus.publish([
    { topic: eventDefinition(envelope.type).topic, key: envelope.companyId ?? 'platform', envelope },
  ]);
  await stack.settle();
}

async function setRedaction(redaction: CompanyPolicies['redaction']) {
  const policies = (mode: CompanyPolicies['redaction']): CompanyPolicies => ({
    redaction: mode,
    keepOriginal: false,
    encryption: false,
    retention: { recordingsDays: null, chatsDays: null, auditDays: null },
  });
  await publish(
    buildEnvelope({
      type: 'company.policies_changed',
      companyId: ACME,
      actor: SYSTEM_ACTOR,
      data: { id: ACME, before: policies('off'), after: policies(redaction) },
    }) as Envelope,
  );
}

/** RMS amplitude of one channel of a stored recording over [start, start + duration]: `sox … stat` (it reports on stderr). */
function rmsOf(audio: Buffer, channel: number, start: number, duration: number): number {
  const path = join(tmp(), audio.subarray(0, 4).toString('latin1') === 'fLaC' ? 'stored.flac' : 'stored.wav');
  writeFileSync(path, audio);
  const { stderr } = spawnSync(
    'sox',
    [path, '-n', 'remix', String(channel + 1), 'trim', String(start), String(duration), 'stat'],
    { encoding: 'utf8' },
  );
  return Number(/RMS\s+amplitude:\s+([\d.]+)/.exec(stderr)?.[1] ?? NaN);
}

beforeAll(async () => {
  provider = scriptedProvider();
  stack = await speechProviderStack(await listenOnLoopback(provider.server));
  user = await stack.tokenFor('USER', ACME);
}, 60_000);
afterAll(async () => {
  await stack.close();
  await new Promise((resolve) => provider.server.close(resolve));
});

/** The call as FLAC (sox): silence compresses better, so the redacted file is smaller and the file service must learn its size. */
function asFlac(wav: Buffer): Buffer {
  const dir = tmp();
  writeFileSync(join(dir, 'call.wav'), wav);
  execFileSync('sox', [join(dir, 'call.wav'), join(dir, 'call.flac')]);
  return readFileSync(join(dir, 'call.flac'));
}

describe.each([
  ['en', 'wav'],
  ['fr', 'wav'],
  ['en', 'flac'],
] as const)('a call in %s (%s) with policy text_audio', (language, format) => {
  const script = SCRIPTS[language];
  let call: Call;
  let fileId: string;
  let uploaded: number;

  beforeAll(async () => {
    call = makeCall(script);
    provider.use(call);
    await setRedaction('text_audio');
    const audio = format === 'flac' ? asFlac(call.audio) : call.audio;
    uploaded = audio.length;
    fileId = await upload(stack, user, audio, `card-${language}.${format}`);
    expect((await waitForStatus(stack, user, fileId)).status).toBe('completed');
  }, 120_000);

  test('the stored words hold labels where the card, its CVV and the address were, at their times, and none of their words', async () => {
    const t = await getTranscript(stack, user, fileId);
    const customer = t.metadata.speakerSegments.filter((s) => s.speakerId === 'speaker_1').flatMap((s) => s.words);
    const labels = customer.filter((w) => w.text.startsWith('['));
    expect(labels.map((w) => w.text)).toEqual(['[card number]', '[card security code]', '[e-mail]']);
    expect(labels[0]!.start).toBeCloseTo(call.card.start, 1);
    expect(labels[0]!.end).toBeCloseTo(call.card.end, 0);
    const stored = await stack.database.query<{ segments: unknown }>(
      'select segments from transcription.transcripts where file_id = $1',
      [fileId],
    );
    expect(idsOut(JSON.stringify(stored))).not.toMatch(script.secret);
    // The agent's words are untouched.
    expect(
      t.metadata.speakerSegments
        .filter((s) => s.speakerId === 'speaker_0')
        .flatMap((s) => s.words)
        .map((w) => w.text),
    ).toEqual(script.agent[0]!.words);
  });

  test('events (what chat, prompt and AI providers copy), search and every export hold none of it', async () => {
    for (const type of ['transcript.completed', 'transcript.text_published', 'transcript.speakers_changed']) {
      expect(idsOut(JSON.stringify(await emitted(stack, type, fileId)))).not.toMatch(script.secret);
    }
    expect(JSON.stringify(await emitted(stack, 'transcript.text_published', fileId))).toContain('[card number]');
    for (const q of language === 'en' ? ['4539', '6467', 'john', 'example'] : ['quatre', 'jean', 'exemple']) {
      const res = await stack.as(user, { method: 'GET', url: `/api/search?q=${encodeURIComponent(q)}` });
      expect(res.statusCode).toBe(200);
      expect(res.json().items).toEqual([]);
    }
    const found = await stack.as(user, { method: 'GET', url: `/api/search?q=${encodeURIComponent('card number')}` });
    expect(found.json().items.map((i: { fileId: string }) => i.fileId)).toContain(fileId);
    for (const format of ['txt', 'srt', 'vtt', 'json', 'csv']) {
      const res = await stack.as(user, { method: 'GET', url: `/api/transcripts/${fileId}/export?format=${format}` });
      expect(res.statusCode).toBe(200);
      expect(idsOut(res.body)).not.toMatch(script.secret);
    }
  });

  test('the stored audio is silent over the card number on playback and download, the rest still sounds, and the peaks say so', async () => {
    await stack.settle();
    const t = await getTranscript(stack, user, fileId);
    const download = await stack.as(user, { method: 'GET', url: t.audioPath });
    expect(download.statusCode).toBe(200);
    const audio = download.rawPayload;
    expect(Number(download.headers['content-length'])).toBe(audio.length);
    if (format === 'flac') expect(audio.length).toBeLessThan(uploaded);
    const { card } = call;
    expect(rmsOf(audio, 1, card.start, card.end - card.start)).toBeLessThan(0.001);
    // The customer's first words, before the card, are still there.
    expect(rmsOf(audio, 1, call.customerStart, 0.5)).toBeGreaterThan(0.01);
    // A range request (playback seeks) reads the same silent bytes.
    const ranged = await stack.as(user, { method: 'GET', url: t.audioPath, headers: { range: 'bytes=0-' } });
    expect(ranged.rawPayload.equals(audio)).toBe(true);
    const peaks = (await stack.as(user, { method: 'GET', url: `/api/transcripts/${fileId}/peaks` })).json() as {
      data: number[];
      pointsPerSecond: number;
    };
    const from = Math.ceil(card.start * peaks.pointsPerSecond) + 1;
    const to = Math.floor(card.end * peaks.pointsPerSecond) - 1;
    for (let p = from; p < to; p++)
      expect(Math.max(Math.abs(peaks.data[p * 2]!), Math.abs(peaks.data[p * 2 + 1]!))).toBe(0);
    expect((await emitted(stack, 'transcript.audio_redacted', fileId))[0]?.data).toMatchObject({
      fileId,
      size: audio.length,
    });
  });
});

test('a re-run redacts again; with policy off the words stay as recognised and the audio is not touched', async () => {
  const call = makeCall(SCRIPTS.en);
  provider.use(call);
  await setRedaction('off');
  const fileId = await upload(stack, user, call.audio, 'plain.wav');
  expect((await waitForStatus(stack, user, fileId)).status).toBe('completed');
  expect(JSON.stringify((await getTranscript(stack, user, fileId)).metadata.speakerSegments)).toContain('4539');
  expect(await emitted(stack, 'transcript.audio_redacted', fileId)).toEqual([]);

  await setRedaction('text');
  const admin = await stack.tokenFor('ADMIN', ACME);
  expect(
    (await stack.as(admin, { method: 'POST', url: '/api/transcripts/transcribe', payload: { fileId } })).statusCode,
  ).toBe(202);
  await stack.settle();
  expect((await waitForStatus(stack, user, fileId)).status).toBe('completed');
  const t = await getTranscript(stack, user, fileId);
  expect(idsOut(JSON.stringify(t.metadata.speakerSegments))).not.toMatch(SCRIPTS.en.secret);
  expect(JSON.stringify(t.metadata.speakerSegments)).toContain('[card number]');
  // Text only: the audio still carries the card.
  const download = await stack.as(user, { method: 'GET', url: t.audioPath });
  expect(rmsOf(download.rawPayload, 1, call.card.start, call.card.end - call.card.start)).toBeGreaterThan(0.01);
}, 180_000);
