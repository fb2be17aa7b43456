// Words the engine was unsure of (confidence below 0.6, where it gives one): underlined in the
// list, and the N key jumps from one to the next.
import type { Segment, Word } from './model';

export const UNSURE_BELOW = 0.6;

export function isUnsure(word: Pick<Word, 'confidence'>): boolean {
  return word.confidence !== undefined && word.confidence < UNSURE_BELOW;
}

/** The first unsure word starting after `time` (wrapping to the start), or null when there is none. */
export function nextUnsureWord(segments: readonly Segment[], time: number): Word | null {
  let first: Word | null = null;
  for (const segment of segments) {
    for (const word of segment.words) {
      if (!isUnsure(word)) continue;
      if (word.start > time + 1e-3) return word;
      first ??= word;
    }
  }
  return first;
}
