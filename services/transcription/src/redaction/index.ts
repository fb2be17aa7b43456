import type { SpeakerSegment, TranscriptWord } from '@earshot/contracts';
import { segmentText } from '../services/segments';
import { detectSensitive, type RedactionKind } from './detectors';

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
 * Hides what the detectors find. Each speaker's words are read in time order across segments (a
 * card number said in two breaths, with the agent's "mm-hm" between, is still one number); the
 * hidden words of one span within one segment become one label word with the first word's id,
 * the first word's start and the last word's end. Segment texts are rebuilt.
 */
export function redactSegments(segments: readonly SpeakerSegment[]): Redaction {
  const bySpeaker = new Map<string, TranscriptWord[]>();
  for (const segment of [...segments].sort((a, b) => a.start - b.start)) {
    const words = bySpeaker.get(segment.speakerId) ?? [];
    words.push(...segment.words);
    bySpeaker.set(segment.speakerId, words);
  }
  // word id → the span hiding it
  const hidden = new Map<string, RedactedSpan>();
  const spans: RedactedSpan[] = [];
  for (const words of bySpeaker.values()) {
    const sorted = [...words].sort((a, b) => a.start - b.start);
    for (const span of detectSensitive(sorted.map((w) => ({ id: w._id, text: w.text, start: w.start, end: w.end })))) {
      const found = { kind: span.kind, start: sorted[span.first]!.start, end: sorted[span.last]!.end };
      spans.push(found);
      for (let i = span.first; i <= span.last; i++) hidden.set(sorted[i]!._id, found);
    }
  }
  if (!spans.length) return { segments: [...segments], spans };
  return {
    spans: spans.sort((a, b) => a.start - b.start),
    segments: segments.map((segment) => {
      if (!segment.words.some((w) => hidden.has(w._id))) return segment;
      const words: TranscriptWord[] = [];
      let open: RedactedSpan | undefined;
      for (const word of segment.words) {
        const span = hidden.get(word._id);
        if (span === undefined) {
          words.push(word);
        } else if (span === open) {
          words[words.length - 1]!.end = word.end;
        } else {
          words.push({ _id: word._id, text: REDACTION_LABELS[span.kind], start: word.start, end: word.end });
        }
        open = span;
      }
      return { ...segment, words, text: segmentText(words) };
    }),
  };
}
