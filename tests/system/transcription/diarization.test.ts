import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { DIARIZATION_EMBEDDING, DIARIZATION_SEGMENTATION, type TranscriptDto } from '@earshot/contracts';
import { loggerOptions } from '@earshot/kit';
import { multipart, type TestStack } from '@earshot/kit/testing';
import { speakerOfEach } from '../../../services/transcription/src/diarization/assign';
import { DiarizationError, DiarizerHost } from '../../../services/transcription/src/diarization/host';
import {
  DIARIZED_TEXT,
  fakeSpeechProvider,
  getTranscript,
  listenOnLoopback,
  speechProviderStack,
  tmp,
  waitForStatus,
  words,
} from './helpers';
import {
  EMBEDDING_METADATA,
  embeddingModel,
  HIGH_HZ,
  HIGHER_HZ,
  LOW_HZ,
  SEGMENTATION_METADATA,
  segmentationModel,
  writeDiarizationModels,
} from './tiny-onnx';

const ACME = '11111111-1111-4111-8111-111111111111';

interface Burst {
  start: number;
  end: number;
  hz: number;
}

/**
 * One channel of tone bursts (each a "word" for the fake provider, each tone a "voice" for the
 * tiny models), built with sox burst by burst and joined end to end (no mixing, so no level loss).
 */
function oneChannel(bursts: Burst[], total: number, level = 0.5): Buffer {
  const dir = tmp();
  let at = 0;
  const parts = bursts.map((b, i) => {
    const path = join(dir, `b${i}.wav`);
    execFileSync('sox', [
      '-V1',
      '-n',
      '-r',
      '16000',
      '-c',
      '1',
      '-b',
      '16',
      path,
      'synth',
      String(b.end - b.start),
      'sine',
      String(b.hz),
      'vol',
      String(level),
      'pad',
      String(b.start - at),
      '0',
    ]);
    at = b.end;
    return path;
  });
  const out = join(dir, 'mono.wav');
  execFileSync('sox', ['-V1', ...parts, out, 'pad', '0', String(total - at)]);
  return readFileSync(out);
}

// Low and high voices by turns: a short high interjection inside the low speaker's 0.8 s pause
// window (word 2), two low words 0.3 s apart (3, 4: one segment), longer than one 10 s window.
const TWO: Burst[] = [
  { start: 0.5, end: 1.5, hz: LOW_HZ },
  { start: 1.6, end: 2.1, hz: HIGH_HZ },
  { start: 2.2, end: 3.2, hz: LOW_HZ },
  { start: 3.5, end: 4.5, hz: LOW_HZ },
  { start: 5.0, end: 6.5, hz: HIGH_HZ },
  { start: 7.0, end: 8.0, hz: LOW_HZ },
  { start: 8.3, end: 9.8, hz: HIGH_HZ },
];
const THREE: Burst[] = [
  { start: 0.5, end: 1.5, hz: LOW_HZ },
  { start: 1.8, end: 2.8, hz: HIGHER_HZ },
  { start: 3.1, end: 4.6, hz: HIGH_HZ },
  { start: 4.9, end: 6.4, hz: LOW_HZ },
  { start: 6.7, end: 8.2, hz: HIGH_HZ },
  { start: 8.5, end: 9.5, hz: HIGHER_HZ },
  { start: 10.5, end: 11.5, hz: LOW_HZ },
];
/**
 * 46 s of two voices taking turns of uneven length (0.6–2.5 s, gaps 0.3–1.2 s), so turns fall
 * across many of the segmentation model's 10 s windows and their 1 s steps, to the very end.
 */
const LONG: Burst[] = (() => {
  const bursts: Burst[] = [];
  const lengths = [1.2, 0.6, 2.5, 1.5, 0.9, 2.0];
  const gaps = [0.4, 1.2, 0.3, 0.8, 0.5];
  let at = 0.5;
  for (let i = 0; at + 2.5 < 45.5; i++) {
    const length = lengths[i % lengths.length]!;
    bursts.push({ start: at, end: Math.round((at + length) * 10) / 10, hz: i % 2 ? HIGH_HZ : LOW_HZ });
    at = Math.round((at + length + gaps[i % gaps.length]!) * 10) / 10;
  }
  return bursts;
})();
const twoVoices = oneChannel(TWO, 10.5);
const longTwoVoices = oneChannel(LONG, 46);
/** The same at −32 dBFS (a peak of 0.025), quieter than the level under which the tiny model once heard nobody. */
const quietLongTwoVoices = oneChannel(LONG, 46, 0.025);
const threeVoices = oneChannel(THREE, 12);

let provider: ReturnType<typeof fakeSpeechProvider>;
let providerUrl: string;
let stack: TestStack;
let user: string;
const logLines: string[] = [];
const modelDir = tmp();
const models = writeDiarizationModels(modelDir);

async function register(name: string, path: string): Promise<void> {
  await stack.database.query(
    `insert into transcription.speech_models (name, kind, languages, path, url, size, sha256, status)
     values ($1, 'diarization', 'multilingual', $2, 'http://127.0.0.1/unused', $3, null, 'ready')
     on conflict (name) do update set path = excluded.path, size = excluded.size, status = 'ready'`,
    [name, path, readFileSync(path).length],
  );
}

async function registerBoth(paths = models): Promise<void> {
  await register(DIARIZATION_SEGMENTATION, paths.segmentation);
  await register(DIARIZATION_EMBEDDING, paths.embedding);
}

/** Uploads (with the upload form's `fields`) and answers the completed transcript. */
async function transcribe(
  audio: Buffer,
  name: string,
  fields: Record<string, string> = {},
  on = stack,
  token = user,
): Promise<TranscriptDto> {
  const res = await on.as(token, {
    method: 'POST',
    url: '/api/files/upload',
    ...multipart(fields, { name, type: 'audio/wav', data: audio }),
  });
  expect(res.statusCode).toBe(201);
  await on.settle();
  const fileId = (res.json() as { _id: string })._id;
  expect((await waitForStatus(on, token, fileId)).status).toBe('completed');
  return getTranscript(on, token, fileId);
}

/** The speaker of the word heard in each burst, by the burst's time. */
function speakerPerBurst(t: TranscriptDto, bursts: Burst[]): string[] {
  const segments = t.metadata.speakerSegments;
  return bursts.map((b) => {
    const found = segments.filter((s) =>
      s.words.some((w) => Math.abs(w.start - b.start) < 0.05 && Math.abs(w.end - b.end) < 0.05),
    );
    expect(found).toHaveLength(1);
    return found[0]!.speakerId;
  });
}

beforeAll(async () => {
  provider = fakeSpeechProvider();
  providerUrl = await listenOnLoopback(provider.server);
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  stack = await speechProviderStack(providerUrl, {}, pino(loggerOptions('info', 'test'), sink));
  user = await stack.tokenFor('USER', ACME);
}, 60_000);
afterAll(async () => {
  await stack.close();
  await new Promise((resolve) => provider.server.close(resolve));
});

describe('one-channel recordings with the diarization models ready', () => {
  beforeAll(async () => {
    provider.setMode('ok');
    await registerBoth();
  });

  test('two voices: two speakers, every word once and with its voice, segments cut where the speaker changes', async () => {
    const t = await transcribe(twoVoices, 'two.wav');
    expect(t.metadata.speakers.map((s) => [s.id, s.label, s.channel])).toEqual([
      ['speaker_0', 'Speaker 1', null],
      ['speaker_1', 'Speaker 2', null],
    ]);
    expect(new Set(t.metadata.speakers.map((s) => s.color)).size).toBe(2);
    expect(words(t)).toHaveLength(TWO.length);
    // The first voice heard (low) is speaker_0; each burst's word went to its tone's speaker.
    expect(speakerPerBurst(t, TWO)).toEqual(TWO.map((b) => (b.hz === LOW_HZ ? 'speaker_0' : 'speaker_1')));
    // A segment never spans the other voice (the interjection cuts the low voice's 0.7 s pause);
    // the same voice 0.3 s later stays in its segment.
    expect(t.metadata.speakerSegments.map((s) => [s.speakerId, s.words.length])).toEqual([
      ['speaker_0', 1],
      ['speaker_1', 1],
      ['speaker_0', 2],
      ['speaker_1', 1],
      ['speaker_0', 1],
      ['speaker_1', 1],
    ]);
  }, 120_000);

  test('a 46-second recording of two voices gets speaker turns through its whole length', async () => {
    const t = await transcribe(longTwoVoices, 'long.wav');
    expect(t.metadata.duration).toBeCloseTo(46, 1);
    expect(t.metadata.speakers.map((s) => s.id)).toEqual(['speaker_0', 'speaker_1']);
    expect(words(t)).toHaveLength(LONG.length);
    expect(LONG.at(-1)!.end).toBeGreaterThan(43);
    // Every burst, the last ones included, with its own voice's speaker.
    expect(speakerPerBurst(t, LONG)).toEqual(LONG.map((b) => (b.hz === LOW_HZ ? 'speaker_0' : 'speaker_1')));
    expect(t.metadata.speakerSegments).toHaveLength(LONG.length);
  }, 120_000);

  test('the speaker count given at upload is honoured: three voices found, two asked for, one asked for', async () => {
    const found = await transcribe(threeVoices, 'three.wav');
    expect(found.metadata.speakers).toHaveLength(3);
    const byTone = (t: TranscriptDto) => {
      const speakers = speakerPerBurst(t, THREE);
      return new Map(THREE.map((b, i) => [b.hz, speakers[i]]));
    };
    expect(new Set(byTone(found).values()).size).toBe(3);

    const two = await transcribe(threeVoices, 'three-as-two.wav', { speakers: '2' });
    expect(two.metadata.speakers.map((s) => s.id)).toEqual(['speaker_0', 'speaker_1']);
    expect(words(two)).toHaveLength(THREE.length);
    // The two nearest voices (the higher tones) are merged; the low voice stays apart.
    const tones = byTone(two);
    expect(tones.get(HIGH_HZ)).toBe(tones.get(HIGHER_HZ));
    expect(tones.get(LOW_HZ)).not.toBe(tones.get(HIGH_HZ));

    const one = await transcribe(twoVoices, 'one.wav', { speakers: '1' });
    expect(one.metadata.speakers.map((s) => s.id)).toEqual(['speaker_0']);
    expect(words(one)).toHaveLength(TWO.length);
  }, 180_000);
});

describe('the diarizer alone', () => {
  const signal = new AbortController().signal;
  const host = new DiarizerHost({ threshold: 0.5, threads: 1 });
  afterAll(async () => host.close());
  const file = (audio: Buffer) => {
    const path = join(tmp(), 'audio.wav');
    writeFileSync(path, audio);
    return path;
  };

  test("a quiet 46-second recording: turns to its end, each burst in its own voice's; silence: no speaker heard, said as the reason", async () => {
    const turns = await host.diarize(models, file(quietLongTwoVoices), null, signal);
    expect(Math.max(...turns.map((t) => t.end))).toBeGreaterThan(LONG.at(-1)!.end - 0.1);
    const speakers = speakerOfEach(
      LONG.map((b) => ({ text: 'tone', start: b.start, end: b.end })),
      turns,
    );
    const [low, high] = [speakers[0], speakers[1]];
    expect(low).not.toBe(high);
    expect(speakers).toEqual(LONG.map((b) => (b.hz === LOW_HZ ? low : high)));

    const silence = join(tmp(), 'silence.wav');
    execFileSync('sox', ['-V1', '-n', '-r', '16000', '-c', '1', '-b', '16', silence, 'trim', '0', '20']);
    await expect(host.diarize(models, silence, null, signal)).rejects.toThrow(
      new DiarizationError('the diarizer heard no speaker in the recording'),
    );
  }, 120_000);
});

describe('one-channel recordings without usable diarization models', () => {
  test('no models ready: one speaker, as before', async () => {
    provider.setMode('ok');
    await stack.database.query(`delete from transcription.speech_models where kind = 'diarization'`);
    const t = await transcribe(twoVoices, 'no-models.wav');
    expect(t.metadata.speakers.map((s) => [s.id, s.label])).toEqual([['speaker_0', 'Speaker 1']]);
    expect(words(t)).toHaveLength(TWO.length);
  }, 120_000);

  test('a model without a metadata key sherpa-onnx needs is refused with the reason, the job keeps one speaker, the service lives', async () => {
    provider.setMode('ok');
    const { normalize_samples: _dropped, ...incomplete } = EMBEDDING_METADATA;
    const broken = join(modelDir, 'broken-embedding.onnx');
    writeFileSync(broken, embeddingModel(incomplete));
    await registerBoth({ segmentation: models.segmentation, embedding: broken });
    logLines.length = 0;
    const t = await transcribe(twoVoices, 'broken.wav');
    expect(t.metadata.speakers).toHaveLength(1);
    expect(words(t)).toHaveLength(TWO.length);
    expect(logLines.join('')).toMatch(
      /Speaker diarization failed, so the recording keeps one speaker: the embedding model lacks the metadata normalize_samples/,
    );

    // The same refusal straight from the diarizer, and a segmentation model with three speakers per frame.
    const host = new DiarizerHost({ threshold: 0.5, threads: 1 });
    const signal = new AbortController().signal;
    const wav = join(tmp(), 'two.wav');
    writeFileSync(wav, twoVoices);
    await expect(
      host.diarize({ segmentation: models.segmentation, embedding: broken }, wav, null, signal),
    ).rejects.toThrow(DiarizationError);
    const threeWay = join(modelDir, 'three-way.onnx');
    writeFileSync(threeWay, segmentationModel({ ...SEGMENTATION_METADATA, powerset_max_classes: 3 }));
    await expect(
      host.diarize({ segmentation: threeWay, embedding: models.embedding }, wav, null, signal),
    ).rejects.toThrow(/powerset_max_classes/);
    // The good models still work in the same diarizer afterwards.
    const turns = await host.diarize(models, wav, 2, signal);
    expect(new Set(turns.map((turn) => turn.speaker)).size).toBe(2);
    await host.close();
  }, 120_000);
});

describe('OpenAI-compatible providers', () => {
  test('verbose JSON with speakers on segments and a probability per word: speakers named by the provider, confidence kept', async () => {
    provider.setMode('speakers');
    const t = await transcribe(twoVoices, 'provider-speakers.wav');
    expect(provider.received.every((r) => r.fields.response_format?.[0] === 'verbose_json')).toBe(true);
    expect(t.metadata.speakers.map((s) => [s.id, s.label])).toEqual([
      ['speaker_0', 'SPEAKER_00'],
      ['speaker_1', 'SPEAKER_01'],
    ]);
    // The fake labels bursts by turns and gives word i a probability of 0.5 + i / 100.
    expect(speakerPerBurst(t, TWO)).toEqual(TWO.map((_, i) => `speaker_${i % 2}`));
    words(t).forEach((w, i) => expect(w.confidence).toBeCloseTo(0.5 + i / 100, 6));
    // Every burst is its own segment: the speaker changes at each one.
    expect(t.metadata.speakerSegments).toHaveLength(TWO.length);
  }, 120_000);
});

describe('a diarizing OpenAI model', () => {
  let diarizing: TestStack;
  let member: string;
  beforeAll(async () => {
    diarizing = await speechProviderStack(providerUrl, { TRANSCRIPTION_MODEL: 'gpt-4o-transcribe-diarize' });
    member = await diarizing.tokenFor('USER', ACME);
  }, 60_000);
  afterAll(async () => {
    await diarizing.close();
  });

  test("diarized JSON: speakers A and B, each segment's words spread over its time by length", async () => {
    provider.setMode('ok');
    const t = await transcribe(twoVoices, 'diarized.wav', {}, diarizing, member);
    expect(
      provider.received.map((r) => [
        r.fields.response_format?.[0],
        r.fields.chunking_strategy?.[0],
        r.fields['timestamp_granularities[]'],
      ]),
    ).toEqual([['diarized_json', 'auto', undefined]]);
    expect(t.metadata.speakers.map((s) => [s.id, s.label])).toEqual([
      ['speaker_0', 'A'],
      ['speaker_1', 'B'],
    ]);
    const tokens = DIARIZED_TEXT.split(' ');
    expect(t.metadata.speakerSegments).toHaveLength(TWO.length);
    t.metadata.speakerSegments.forEach((segment, i) => {
      const burst = TWO[i]!;
      expect(segment.speakerId).toBe(`speaker_${i % 2}`);
      expect(segment.words.map((w) => w.text)).toEqual(tokens);
      // Inside the segment's time, in order, longer words longer.
      for (const w of segment.words) {
        expect(w.start).toBeGreaterThanOrEqual(burst.start - 0.05);
        expect(w.end).toBeLessThanOrEqual(burst.end + 0.05);
      }
      const [, there, my] = segment.words.map((w) => w.end - w.start);
      expect(there! / my!).toBeGreaterThan(2);
      expect(there! / my!).toBeLessThan(3);
    });
  }, 120_000);
});
