import type { SpeakerSegment, TranscriptWord } from '@earshot/contracts';
import { segmentText } from '../segments';

/** Makes the ids of one edit's new words and segments: the run scheme with a tag of its own. */
export interface IdSource {
  segment(): string;
  word(): string;
}

/** `w-<tag>-<n>` / `s-<tag>-<n>`: `tag` is fresh per edit, so new ids never meet the run's or another edit's. */
export function idSource(tag: string): IdSource {
  let segments = 0;
  let words = 0;
  return { segment: () => `s-${tag}-${segments++}`, word: () => `w-${tag}-${words++}` };
}

const ms = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** A segment rebuilt around its words: text, start and end always come from them. */
export function withWords(
  segment: SpeakerSegment,
  words: TranscriptWord[],
  extra: Partial<SpeakerSegment> = {},
): SpeakerSegment {
  return {
    ...segment,
    ...extra,
    words,
    text: segmentText(words),
    start: words[0]!.start,
    end: words[words.length - 1]!.end,
  };
}

/** Old words `from`..`to` (exclusive; equal for an insertion) become `tokens`. */
export interface Run {
  from: number;
  to: number;
  tokens: string[];
}

/**
 * Applies runs (sorted, not overlapping) to a segment's words. The timing rule: words outside the
 * runs keep their id and times; the tokens of a run share the span between its unchanged
 * neighbours (the end of the word before it, or the segment's start, to the start of the word
 * after it, or the segment's end) in proportion to their length in characters, with new ids.
 * Answers the new words (empty when every word went).
 */
export function applyRuns(segment: SpeakerSegment, runs: readonly Run[], ids: IdSource): TranscriptWord[] {
  const words = segment.words;
  const segmentStart = segment.start;
  const segmentEnd = segment.end ?? words[words.length - 1]?.end ?? segment.start;
  const out: TranscriptWord[] = [];
  let cursor = 0;
  for (const run of runs) {
    out.push(...words.slice(cursor, run.from));
    const spanStart = run.from > 0 ? words[run.from - 1]!.end : segmentStart;
    const spanEnd = Math.max(spanStart, run.to < words.length ? words[run.to]!.start : segmentEnd);
    const total = run.tokens.reduce((n, t) => n + t.length, 0) || 1;
    let before = 0;
    for (const text of run.tokens) {
      const start = ms(spanStart + ((spanEnd - spanStart) * before) / total);
      before += text.length;
      out.push({ _id: ids.word(), text, start, end: ms(spanStart + ((spanEnd - spanStart) * before) / total) });
    }
    cursor = run.to;
  }
  out.push(...words.slice(cursor));
  return out;
}

/** Tokens of typed text: words are what whitespace separates. */
export const tokensOf = (text: string): string[] => text.split(/\s+/).filter(Boolean);

/**
 * The runs that turn the old words into `tokens`: a longest common subsequence of the texts keeps
 * every word it can, and each stretch between two kept words is one run.
 */
export function diffRuns(words: readonly TranscriptWord[], tokens: readonly string[]): Run[] {
  const old = words.map((w) => w.text.trim());
  const n = old.length;
  const m = tokens.length;
  // lcs[i][j]: the longest common subsequence of old[i..] and tokens[j..].
  const lcs = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = old[i] === tokens[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const runs: Run[] = [];
  let i = 0;
  let j = 0;
  let open: Run | null = null;
  const close = () => {
    if (open && (open.to > open.from || open.tokens.length > 0)) runs.push(open);
    open = null;
  };
  while (i < n || j < m) {
    if (i < n && j < m && old[i] === tokens[j] && lcs[i]![j] === lcs[i + 1]![j + 1]! + 1) {
      close();
      i++;
      j++;
      continue;
    }
    open ??= { from: i, to: i, tokens: [] };
    if (j < m && (i >= n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) open.tokens.push(tokens[j++]!);
    else open.to = ++i;
  }
  close();
  return runs;
}
