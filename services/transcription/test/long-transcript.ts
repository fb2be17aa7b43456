import type { SpeakerInfo, SpeakerSegment, TranscriptDto } from '@earshot/contracts';

const VOCABULARY = [
  'hello',
  'thank',
  'you',
  'for',
  'calling',
  'the',
  'account',
  'invoice',
  'number',
  'is',
  'seven',
  'hundred',
  'and',
  'twelve',
  'could',
  'please',
  'confirm',
  'your',
  'address',
  'in',
  'Rīga',
  'Tallinn',
  'delivery',
  'arrived',
  'late',
  'yesterday',
  'we',
  'will',
  'refund',
  'shipping',
  'costs',
  'of',
  'course',
  'no',
  'problem',
  'that',
  'sounds',
  'good',
  'unfortunately',
  'international',
  'customer-service',
  'representative',
  'A&B',
  'okay',
  'right',
  'exactly',
  'sure',
];

/** A repeatable pseudo-random sequence (mulberry32), so every run generates the same transcript. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/**
 * A completed call of `words` words over `seconds`: segments of 2–24 words (as the pipeline cuts
 * speech at pauses), words 0.15–0.5 s long with short gaps, a pause after each segment; the other
 * speaker takes over after two segments in three.
 */
export function longTranscript(options: {
  words: number;
  seconds: number;
  originalName?: string;
  seed?: number;
  /** The nth word's text (default: drawn from a call's vocabulary). */
  word?: (n: number) => string;
}): TranscriptDto {
  const next = random(options.seed ?? 22);
  const raw: { speakerId: string; words: { text: string; start: number; end: number }[] }[] = [];
  let at = 0.4;
  let left = options.words;
  let speaker = 0;
  let drawn = 0;
  while (left > 0) {
    const count = Math.min(left, 2 + Math.floor(next() * 23));
    const words = [];
    for (let i = 0; i < count; i++) {
      const length = 0.15 + next() * 0.35;
      const text = VOCABULARY[Math.floor(next() * VOCABULARY.length)]!;
      words.push({ text: options.word?.(drawn) ?? text, start: at, end: at + length });
      drawn++;
      at += length + 0.02 + next() * 0.1;
    }
    raw.push({ speakerId: `speaker_${speaker}`, words });
    if (next() < 2 / 3) speaker = 1 - speaker;
    left -= count;
    at += 0.3 + next() * 1.2;
  }
  const scale = options.seconds / at;
  let n = 0;
  const segments: SpeakerSegment[] = raw.map((segment, s) => {
    const words = segment.words.map((w) => ({
      _id: `w-bench-${n++}`,
      text: w.text,
      start: round(w.start * scale),
      end: round(w.end * scale),
    }));
    return {
      _id: `s-bench-${s}`,
      speakerId: segment.speakerId,
      start: words[0]!.start,
      end: words[words.length - 1]!.end,
      text: words.map((w) => w.text).join(' '),
      words,
    };
  });
  const speakers: SpeakerInfo[] = [
    { id: 'speaker_0', label: 'Agent', channel: 0, color: '#2563eb' },
    { id: 'speaker_1', label: 'Customer', channel: 1, color: '#db2777' },
  ];
  const fileId = '00000000-0000-4000-8000-00000000b00c';
  const now = '2026-11-25T10:00:00.000Z';
  return {
    _id: '00000000-0000-4000-8000-00000000b00d',
    fileId,
    companyId: '00000000-0000-4000-8000-00000000b00e',
    audioPath: `/api/uploads/${fileId}`,
    status: 'completed',
    reason: null,
    clientId: null,
    engine: 'pocketsphinx',
    language: 'en',
    model: null,
    file: {
      url: `/api/uploads/${fileId}`,
      path: fileId,
      filename: fileId,
      originalName: options.originalName ?? 'long call.wav',
      uploadDate: now,
    },
    metadata: {
      duration: options.seconds,
      peaksUrl: `/api/transcripts/${fileId}/peaks`,
      speakers,
      speakerSegments: segments,
    },
    createdAt: now,
    updatedAt: now,
  };
}
