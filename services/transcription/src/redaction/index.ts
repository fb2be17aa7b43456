import type { SpeakerSegment, TranscriptWord } from '@earshot/contracts';
import { hiddenIn, rebuild, REDACTION_LABELS, type Cut, type RedactionKind } from '@earshot/redaction';
import { segmentText } from '../services/segments';

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
