import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { planChunks } from '../src/audio/chunks';
import { engineForModel } from '../src/engines';
import { transcriptionConfigShape, type TranscriptionSettings } from '../src/config';
import { JobError } from '../src/services/job-error';
import { z } from 'zod';
import { tmp } from './tmp';
import { parsePocketSphinx } from '../src/engines/pocketsphinx';
import { buildSegments } from '../src/services/segments';

test('long audio is cut in the middle of silences, hard only where a window has none, silent pieces skipped', () => {
  const silences = [
    { start: 40, end: 42 },
    { start: 55, end: 57 },
    { start: 100, end: 130 },
  ];
  expect(planChunks(150, silences, 60)).toEqual([
    { start: 0, end: 56 }, // the latest silence in the window's second half
    { start: 56, end: 115 }, // the middle of the long silence
    { start: 115, end: 150 },
  ]);
  // No silence at all: hard cuts at the limit.
  expect(planChunks(130, [], 60)).toEqual([
    { start: 0, end: 60 },
    { start: 60, end: 120 },
    { start: 120, end: 130 },
  ]);
  // Short audio is one piece; a piece that is silence throughout is not decoded.
  expect(planChunks(30, [], 60)).toEqual([{ start: 0, end: 30 }]);
  expect(planChunks(30, [{ start: 0, end: 30 }], 60)).toEqual([]);
});

test('PocketSphinx output: words with times; utterance marks, silences, fillers and variants cleaned', () => {
  const out = [
    'hello world',
    '<s> 0.000 0.020 1.000200',
    'hello 0.030 0.270 0.041888',
    '<sil> 0.280 0.400 0.9',
    '[NOISE] 0.410 0.500 0.9',
    '++UH++ 0.510 0.600 0.9',
    'world(2) 0.610 0.900 0.5',
    '</s> 0.910 1.000 1.000000',
  ].join('\n');
  expect(parsePocketSphinx(out)).toEqual([
    { text: 'hello', start: 0.03, end: 0.27, confidence: 0.042 },
    { text: 'world', start: 0.61, end: 0.9, confidence: 0.5 },
  ]);
  // A score that is not a probability is no confidence.
  expect(parsePocketSphinx('hello 0.030 0.270 -3.5')).toEqual([{ text: 'hello', start: 0.03, end: 0.27 }]);
});

test('segments: split at pauses over 0.8 s, interleaved across speakers, overlapping times made ascending', () => {
  const segments = buildSegments(
    [
      {
        speakerId: 'speaker_0',
        words: [
          { text: 'a', start: 0, end: 0.5 },
          { text: 'b', start: 0.4, end: 0.9 },
          { text: 'c', start: 2, end: 2.5 },
        ],
      },
      {
        speakerId: 'speaker_1',
        words: [
          { text: 'x', start: 1, end: 1.4 },
          { text: 'y', start: 9.9, end: 11 },
        ],
      },
    ],
    10,
    'run',
  );
  expect(segments.map((s) => [s.speakerId, s.text, s.start, s.end])).toEqual([
    ['speaker_0', 'a b', 0, 0.9],
    ['speaker_1', 'x', 1, 1.4],
    ['speaker_0', 'c', 2, 2.5],
    ['speaker_1', 'y', 9.9, 10],
  ]);
  expect(segments[0]!.words[1]).toEqual({ _id: 'w-run-1', text: 'b', start: 0.5, end: 0.9 });
  expect(segments.map((s) => s._id)).toEqual(['s-run-0', 's-run-1', 's-run-2', 's-run-3']);
});

test('a word keeps the confidence the engine gave it, and a word without one has none', () => {
  const [segment] = buildSegments(
    [
      {
        speakerId: 'speaker_0',
        words: [
          { text: 'a', start: 0, end: 0.5, confidence: 0.42 },
          { text: 'b', start: 0.6, end: 0.9 },
        ],
      },
    ],
    5,
    'run',
  );
  expect(segment!.words).toEqual([
    { _id: 'w-run-0', text: 'a', start: 0, end: 0.5, confidence: 0.42 },
    { _id: 'w-run-1', text: 'b', start: 0.6, end: 0.9 },
  ]);
});

test('a configured model whose provider sits on the metadata address fails the job at once, without a request', async () => {
  const settings = z.object(transcriptionConfigShape).parse({ AI_ALLOW_PRIVATE_URLS: 'true' }) as TranscriptionSettings;
  const engine = engineForModel(
    {
      modelId: 'm',
      providerId: 'p',
      model: 'whisper-1',
      label: 'Whisper',
      contextSize: null,
      endpoint: { baseUrl: 'http://169.254.169.254/v1', apiKey: 'k' },
    },
    settings,
  );
  const wav = join(tmp(), 'silence.wav');
  writeFileSync(wav, Buffer.alloc(44 + 3200));
  const failure = await engine.transcribe(wav).then(
    () => null,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(JobError);
  expect(failure).toMatchObject({ retryable: false, reason: expect.stringContaining('link-local') });
});
