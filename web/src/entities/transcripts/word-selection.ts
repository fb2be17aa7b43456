// A run of words inside one turn, picked with Shift+click, to give to another speaker.
import type { Segment } from './model';

export interface WordSelection {
  segmentId: string;
  anchor: number;
  from: number;
  to: number;
}

/** Shift+click: extends the run from its first word in the same turn, or starts one in another. */
export function extendSelection(previous: WordSelection | null, segmentId: string, index: number): WordSelection {
  if (previous?.segmentId !== segmentId) return { segmentId, anchor: index, from: index, to: index };
  return {
    segmentId,
    anchor: previous.anchor,
    from: Math.min(previous.anchor, index),
    to: Math.max(previous.anchor, index),
  };
}

/** The word ids to send with a reassignment: none when the run is the whole turn (or not in it). */
export function selectedWordIds(segment: Segment, selection: WordSelection | null): string[] | undefined {
  if (selection?.segmentId !== segment._id) return undefined;
  if (selection.from === 0 && selection.to >= segment.words.length - 1) return undefined;
  return segment.words.slice(selection.from, selection.to + 1).map((word) => word._id);
}
