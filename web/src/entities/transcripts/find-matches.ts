// Find & replace, client side: the matches of the find bar over the loaded segments' text, counted
// and numbered the way the server's replace counts them (`occurrence` is 0-based inside a segment).
import type { Segment } from './model';

export interface FindOptions {
  find: string;
  matchCase: boolean;
  wholeWord: boolean;
}

export interface Match {
  segmentId: string;
  /** Which match of that segment's text (0-based): the replace-one route's `occurrence`. */
  occurrence: number;
}

const SPECIAL = /[.*+?^${}()|[\]\\]/g;
// A whole word is not touched by a letter, a digit or an underscore on either side.
const WORD_CHAR = '[\\p{L}\\p{N}_]';

export function findPattern({ find, matchCase, wholeWord }: FindOptions): RegExp | null {
  if (!find) return null;
  const escaped = find.replace(SPECIAL, '\\$&');
  const source = wholeWord ? `(?<!${WORD_CHAR})${escaped}(?!${WORD_CHAR})` : escaped;
  return new RegExp(source, matchCase ? 'gu' : 'giu');
}

/** Every match in transcript order (matches do not overlap, as String.replace finds them). */
export function findMatches(segments: readonly Segment[], options: FindOptions): Match[] {
  const pattern = findPattern(options);
  if (!pattern) return [];
  const matches: Match[] = [];
  for (const segment of segments) {
    let occurrence = 0;
    // The text as the server matches it: the words, trimmed, joined by one space.
    const text = segment.words.map((word) => word.text.trim()).join(' ');
    for (const found of text.matchAll(pattern)) {
      if (found[0].length === 0) continue;
      matches.push({ segmentId: segment._id, occurrence });
      occurrence += 1;
    }
  }
  return matches;
}

/** The next (or previous) match's index, wrapping around; -1 without matches. */
export function stepMatch(current: number, count: number, direction: 1 | -1): number {
  if (count === 0) return -1;
  if (current < 0) return direction === 1 ? 0 : count - 1;
  return (current + direction + count) % count;
}
