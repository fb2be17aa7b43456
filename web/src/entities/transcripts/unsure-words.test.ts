import { describe, expect, it } from '@jest/globals';
import type { Segment } from './model';
import { isUnsure, nextUnsureWord } from './unsure-words';

const w = (id: string, start: number, confidence?: number) => ({
  _id: id,
  text: id,
  start,
  end: start + 0.4,
  ...(confidence === undefined ? {} : { confidence }),
});
const segments = [
  { _id: 's1', speakerId: 'a', start: 0, end: 2, text: '', words: [w('a', 0, 0.9), w('b', 1, 0.3)] },
  { _id: 's2', speakerId: 'b', start: 2, end: 4, text: '', words: [w('c', 2), w('d', 3, 0.59), w('e', 3.5, 0.6)] },
] as Segment[];

describe('unsure words', () => {
  it('are those with a confidence below 0.6; no confidence is not unsure', () => {
    expect(isUnsure({ confidence: 0.59 })).toBe(true);
    expect(isUnsure({ confidence: 0.6 })).toBe(false);
    expect(isUnsure({})).toBe(false);
  });

  it('jump to the next one after the position, wrapping to the first', () => {
    expect(nextUnsureWord(segments, 0)?._id).toBe('b');
    expect(nextUnsureWord(segments, 1)?._id).toBe('d');
    expect(nextUnsureWord(segments, 3)?._id).toBe('b');
    expect(
      nextUnsureWord(
        [segments[0]!].map((s) => ({ ...s, words: [w('x', 0, 0.9)] })),
        0,
      ),
    ).toBeNull();
  });
});
