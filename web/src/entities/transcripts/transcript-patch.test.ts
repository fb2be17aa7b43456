import { describe, expect, it } from '@jest/globals';
import type { Segment } from './model';
import { patchSegments, speakersFrom } from './transcript-patch';

function seg(id: string, start: number, speakerId = 'speaker_0'): Segment {
  return {
    _id: id,
    speakerId,
    start,
    end: start + 1,
    text: id,
    words: [{ _id: `w-${id}`, text: id, start, end: start + 1 }],
  };
}

describe('applying a transcript patch', () => {
  const before = [seg('a', 0), seg('b', 2), seg('c', 4)];

  it('removes, replaces by id and adds, then sorts by start', () => {
    const after = patchSegments(before, {
      removed: ['b'],
      segments: [{ ...seg('c', 4), text: 'changed' }, seg('n', 1)],
    });
    expect(after.map((s) => s._id)).toEqual(['a', 'n', 'c']);
    expect(after[2]!.text).toBe('changed');
  });

  it('keeps the order before for segments that start together (two channels), new ones after', () => {
    const overlapping = [seg('x', 3, 'speaker_1'), seg('y', 3, 'speaker_0')];
    expect(
      patchSegments(overlapping, { removed: [], segments: [seg('z', 3), { ...seg('x', 3), text: 'x2' }] }).map(
        (s) => s._id,
      ),
    ).toEqual(['x', 'y', 'z']);
  });

  it('moves a segment whose start changed (a split keeps the first half, adds the second)', () => {
    const after = patchSegments(before, {
      removed: [],
      segments: [{ ...seg('a', 0), end: 0.5 }, seg('a2', 0.5, 'speaker_1')],
    });
    expect(after.map((s) => s._id)).toEqual(['a', 'a2', 'b', 'c']);
  });

  it('leaves the untouched segments as the same objects and the input alone', () => {
    const after = patchSegments(before, { removed: ['a'], segments: [] });
    expect(after[0]).toBe(before[1]);
    expect(before).toHaveLength(3);
  });

  it('turns the answer’s speakers into the transcript’s, keeping each one’s channel', () => {
    const speakers = speakersFrom(
      [
        { speakerId: 'speaker_0', name: 'Anna', color: '#4f46e5' },
        { speakerId: 'speaker_2', name: 'Speaker 3', color: '#16a34a' },
      ],
      [
        { id: 'speaker_0', label: 'Agent', channel: 0, color: '#4f46e5' },
        { id: 'speaker_1', label: 'Customer', channel: 1, color: '#0891b2' },
      ],
    );
    expect(speakers).toEqual([
      { id: 'speaker_0', label: 'Anna', channel: 0, color: '#4f46e5' },
      { id: 'speaker_2', label: 'Speaker 3', channel: null, color: '#16a34a' },
    ]);
  });
});
