import { describe, expect, it } from '@jest/globals';
import { activeWord, findActive, segmentEnd } from './highlight';
import type { Segment } from './model';

const w = (id: string, start: number, end: number) => ({ _id: id, text: id, start, end });
const segments: Segment[] = [
  { _id: 's1', speakerId: 'speaker_0', start: 0.5, end: 2, text: '', words: [w('a', 0.5, 1), w('b', 1.2, 2)] },
  { _id: 's2', speakerId: 'speaker_1', start: 3, end: 4, text: '', words: [w('c', 3, 3.5), w('d', 3.5, 4)] },
  { _id: 's3', speakerId: 'speaker_0', start: 6, text: '', words: [w('e', 6, 6.5)] },
];

describe('highlight rule (±0.1 s)', () => {
  it('highlights the word whose span holds the time', () => {
    expect(findActive(segments, 0.7, 10)).toEqual({ segmentIndex: 0, segmentId: 's1', wordId: 'a' });
    expect(findActive(segments, 1.5, 10).wordId).toBe('b');
  });

  it('accepts 0.1 s either side of a word, and not more', () => {
    expect(findActive(segments, 0.41, 10).wordId).toBe('a');
    expect(findActive(segments, 1.09, 10).wordId).toBe('a');
    expect(findActive(segments, 1.11, 10).wordId).toBe('b');
    expect(findActive(segments, 0.39, 10)).toEqual({ segmentIndex: -1, segmentId: null, wordId: null });
    expect(findActive(segments, 2.11, 10).segmentId).toBeNull();
  });

  it('keeps the word still being spoken when the next one is inside its tolerance', () => {
    expect(activeWord(segments[1]!.words, 3.45)?._id).toBe('c');
    expect(activeWord(segments[1]!.words, 3.5)?._id).toBe('d');
  });

  it('keeps the segment between its words, with no word highlighted in a gap', () => {
    const gap: Segment = { _id: 'g', speakerId: 'x', start: 0, end: 5, text: '', words: [w('p', 0, 1), w('q', 4, 5)] };
    expect(findActive([gap], 2.5, 10)).toEqual({ segmentIndex: 0, segmentId: 'g', wordId: null });
  });

  it('runs a segment without an end to the end of the audio', () => {
    expect(segmentEnd(segments[2]!, 10)).toBe(10);
    expect(findActive(segments, 9.9, 10)).toEqual({ segmentIndex: 2, segmentId: 's3', wordId: null });
    expect(findActive(segments, 6.2, 10).wordId).toBe('e');
    expect(findActive(segments, 10.2, 10).segmentId).toBeNull();
    // Duration unknown yet: the open segment lasts.
    expect(findActive(segments, 500, 0).segmentId).toBe('s3');
  });

  // Speed is measured by `npm run bench:viewer`, not asserted here.
  it('finds the spoken word among 30,000', () => {
    const many: Segment[] = [];
    for (let s = 0; s < 3000; s += 1) {
      const words = Array.from({ length: 10 }, (_, i) => w(`w${s}-${i}`, s * 3.6 + i * 0.3, s * 3.6 + i * 0.3 + 0.25));
      many.push({ _id: `s${s}`, speakerId: `speaker_${s % 2}`, start: s * 3.6, end: s * 3.6 + 3, text: '', words });
    }
    expect(findActive(many, 1800 * 3.6 + 0.31, 10_800).wordId).toBe('w1800-1');
    expect(findActive(many, 0.1, 10_800).wordId).toBe('w0-0');
    expect(findActive(many, 2999 * 3.6 + 2.75, 10_800).wordId).toBe('w2999-9');
    // Between two segments (3 s to 3.6 s of each 3.6 s step) no segment is current.
    expect(findActive(many, 1800 * 3.6 + 3.3, 10_800).segmentId).toBeNull();
  });

  it('highlights nothing before playback or with no segments', () => {
    expect(findActive([], 1, 10).segmentId).toBeNull();
    expect(findActive(segments, -1, 10).segmentId).toBeNull();
    expect(findActive(segments, Number.NaN, 10).segmentId).toBeNull();
  });
});
