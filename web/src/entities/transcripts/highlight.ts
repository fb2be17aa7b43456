// Which segment and word are being spoken at a playback time (±0.1 s).
// Binary searches, so a 3-hour transcript costs a few dozen comparisons per frame.
import { HIGHLIGHT_TOLERANCE, type Segment, type Word } from './model';

export interface Active {
  segmentIndex: number;
  segmentId: string | null;
  wordId: string | null;
}

export const NOTHING_ACTIVE: Active = { segmentIndex: -1, segmentId: null, wordId: null };

/** The end of a segment; a missing end means the end of the audio. */
export function segmentEnd(segment: Segment, duration: number): number {
  return segment.end ?? (duration > 0 ? duration : Number.POSITIVE_INFINITY);
}

/** Index of the last item whose key is <= value (-1 when none). `items` are ordered by key. */
function lastAtOrBefore<T>(items: readonly T[], value: number, key: (item: T) => number): number {
  let lo = 0;
  let hi = items.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (key(items[mid]!) <= value) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The word spoken at `time` within ±tolerance, preferring one whose own span holds the time. */
export function activeWord(words: readonly Word[], time: number, tolerance = HIGHLIGHT_TOLERANCE): Word | null {
  const k = lastAtOrBefore(words, time + tolerance, (w) => w.start);
  if (k < 0) return null;
  const candidate = words[k]!;
  const previous = k > 0 ? words[k - 1]! : null;
  // The next word may already be inside its tolerance while the previous one is still spoken.
  if (previous && time < candidate.start && time <= previous.end) return previous;
  if (time <= candidate.end + tolerance) return candidate;
  return null;
}

/**
 * The segment spoken at `time` (start - tolerance ≤ time ≤ end + tolerance, end missing = end of
 * the audio) and its word. Segments are ordered by start; when speakers overlap, the latest started
 * segment that still holds the time wins.
 */
export function findActive(
  segments: readonly Segment[],
  time: number,
  duration: number,
  tolerance = HIGHLIGHT_TOLERANCE,
): Active {
  if (!(time >= 0) || segments.length === 0) return NOTHING_ACTIVE;
  const last = lastAtOrBefore(segments, time + tolerance, (s) => s.start);
  // Look back a few segments for overlapping speakers (two channels of a call).
  for (let i = last; i >= 0 && i >= last - 4; i -= 1) {
    const segment = segments[i]!;
    if (time <= segmentEnd(segment, duration) + tolerance) {
      const word = activeWord(segment.words, time, tolerance);
      return { segmentIndex: i, segmentId: segment._id, wordId: word?._id ?? null };
    }
  }
  return NOTHING_ACTIVE;
}
