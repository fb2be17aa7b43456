import type { SpeakerSegment, TranscriptWord } from '@earshot/contracts';
import { segmentText } from '../services/segments';
import { detectSensitive, type RedactionKind } from './detectors';
import type { RedactionWord } from './numbers';
import { cutsOf, rebuild, tokenize, type Cut } from './normalise';

export { detectSensitive, REDACTION_KINDS, type RedactionKind, type IndexSpan } from './detectors';

/** What a hidden word reads as: the label keeps the words' time span. */
export const REDACTION_LABELS: Readonly<Record<RedactionKind, string>> = {
  card_number: '[card number]',
  card_cvv: '[card security code]',
  card_expiry: '[card expiry]',
  iban: '[IBAN]',
  national_id: '[national ID]',
  email: '[e-mail]',
  phone: '[phone number]',
};

/** A hidden stretch of the audio: what was said there and when (seconds). */
export interface RedactedSpan {
  kind: RedactionKind;
  start: number;
  end: number;
}

export interface Redaction {
  segments: SpeakerSegment[];
  spans: RedactedSpan[];
}

/**
 * What the detectors hide in one speaker's words (in time order): the spans, by word index, and
 * the characters each word loses (a number glued to a word hides the number only, see normalise.ts).
 */
function hiddenIn(words: readonly RedactionWord[]): {
  spans: { kind: RedactionKind; first: number; last: number }[];
  cuts: Map<number, Cut<number>[]>;
} {
  const { tokens, words: read } = tokenize(words);
  const spans = detectSensitive(read);
  const cuts = new Map<number, Cut<number>[]>();
  spans.forEach((span, index) => {
    for (const { word, cut } of cutsOf(words, tokens, span.first, span.last, index))
      cuts.set(word, [...(cuts.get(word) ?? []), cut]);
  });
  return {
    spans: spans.map((s) => ({ kind: s.kind, first: tokens[s.first]!.word, last: tokens[s.last]!.word })),
    cuts,
  };
}

/**
 * Hides what the detectors find. Each speaker's words are read in time order across segments (a
 * card number said in two breaths, with the agent's "mm-hm" between, is still one number); the
 * hidden words of one span within one segment become one word with the first word's id, the
 * first word's start and the last word's end, reading as the span's label (with what a word
 * glued to the number keeps: "card:[card number]"). Segment texts are rebuilt.
 */
export function redactSegments(segments: readonly SpeakerSegment[]): Redaction {
  const bySpeaker = new Map<string, TranscriptWord[]>();
  for (const segment of [...segments].sort((a, b) => a.start - b.start)) {
    const words = bySpeaker.get(segment.speakerId) ?? [];
    words.push(...segment.words);
    bySpeaker.set(segment.speakerId, words);
  }
  // word id → the characters hidden in it, each with its span
  const hidden = new Map<string, Cut<RedactedSpan>[]>();
  const spans: RedactedSpan[] = [];
  for (const words of bySpeaker.values()) {
    const sorted = [...words].sort((a, b) => a.start - b.start);
    const found = hiddenIn(sorted.map((w) => ({ id: w._id, text: w.text, start: w.start, end: w.end })));
    const times = found.spans.map((s) => ({ kind: s.kind, start: sorted[s.first]!.start, end: sorted[s.last]!.end }));
    spans.push(...times);
    for (const [index, cuts] of found.cuts)
      hidden.set(
        sorted[index]!._id,
        cuts.map((c) => ({ ...c, span: times[c.span]! })),
      );
  }
  if (!spans.length) return { segments: [...segments], spans };
  return {
    spans: spans.sort((a, b) => a.start - b.start),
    segments: segments.map((segment) => {
      if (!segment.words.some((w) => hidden.has(w._id))) return segment;
      const words = rebuild(
        segment.words,
        (w) => hidden.get(w._id),
        (span) => REDACTION_LABELS[span.kind],
        (first, last, text): TranscriptWord => ({ _id: first._id, text, start: first.start, end: last.end }),
      );
      return { ...segment, words, text: segmentText(words) };
    }),
  };
}

/**
 * Hides what the detectors find in a text that is not a transcript's words (a speaker's name, an
 * edit's summary): its words are the text's whitespace-separated parts. `count` is the spans hidden.
 */
export function redactText(text: string): { text: string; count: number } {
  const parts = text.split(/(\s+)/);
  const words = parts.flatMap((part, k) =>
    k % 2 === 0 && part ? [{ id: String(k), text: part, start: 0, end: 0 }] : [],
  );
  const found = hiddenIn(words);
  if (!found.spans.length) return { text, count: 0 };
  const cuts = new Map(words.map((w, index) => [w.id, found.cuts.get(index)]));
  // Spaces inside one hidden span go with it; every other space stays as typed. `last`: the last part joined.
  const rebuilt = rebuild(
    words.map((w) => ({ id: w.id, text: w.text, last: w.id })),
    (w) => cuts.get(w.id),
    (span) => REDACTION_LABELS[found.spans[span]!.kind],
    (first, last, joined) => ({ id: first.id, text: joined, last: last.id }),
  );
  let out = '';
  let k = 0;
  for (const word of rebuilt) {
    const at = Number(word.id);
    while (k < at) out += parts[k++];
    out += word.text;
    k = Number(word.last) + 1;
  }
  while (k < parts.length) out += parts[k++];
  return { text: out, count: found.spans.length };
}
