import { describe, expect, it } from '@jest/globals';
import type { Segment } from './model';
import { extendSelection, selectedWordIds } from './word-selection';

const segment = {
  _id: 's1',
  words: ['a', 'b', 'c', 'd'].map((id, i) => ({ _id: id, text: id, start: i, end: i + 0.5 })),
} as Segment;

describe('word selection', () => {
  it('starts at the first Shift+click and extends either way from it', () => {
    let selection = extendSelection(null, 's1', 2);
    expect(selection).toEqual({ segmentId: 's1', anchor: 2, from: 2, to: 2 });
    selection = extendSelection(selection, 's1', 0);
    expect(selection).toEqual({ segmentId: 's1', anchor: 2, from: 0, to: 2 });
    selection = extendSelection(selection, 's1', 3);
    expect(selection).toEqual({ segmentId: 's1', anchor: 2, from: 2, to: 3 });
  });

  it('starts again in another turn', () => {
    expect(extendSelection({ segmentId: 's1', anchor: 0, from: 0, to: 1 }, 's2', 4)).toEqual({
      segmentId: 's2',
      anchor: 4,
      from: 4,
      to: 4,
    });
  });

  it('sends the run’s word ids, or none for the whole turn', () => {
    expect(selectedWordIds(segment, { segmentId: 's1', anchor: 1, from: 1, to: 2 })).toEqual(['b', 'c']);
    expect(selectedWordIds(segment, { segmentId: 's1', anchor: 0, from: 0, to: 3 })).toBeUndefined();
    expect(selectedWordIds(segment, { segmentId: 's2', anchor: 0, from: 0, to: 0 })).toBeUndefined();
    expect(selectedWordIds(segment, null)).toBeUndefined();
  });
});
