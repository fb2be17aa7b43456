import { describe, expect, it } from '@jest/globals';
import { EMPTY_UNDO, UNDO_LIMIT, undoReducer, type UndoStack, type UndoEvent } from './undo-stack';

const run = (events: UndoEvent[], from: UndoStack = EMPTY_UNDO) => events.reduce(undoReducer, from);

describe('the undo stack', () => {
  it('undoes the latest edit first and can redo it', () => {
    let state = run([
      { type: 'edited', editId: 'e1' },
      { type: 'edited', editId: 'e2' },
    ]);
    expect(state.undo.at(-1)).toBe('e2');
    state = undoReducer(state, { type: 'undone', editId: 'e2' });
    expect(state).toEqual({ undo: ['e1'], redo: ['e2'] });
    state = undoReducer(state, { type: 'redone', editId: 'e2' });
    expect(state).toEqual({ undo: ['e1', 'e2'], redo: [] });
  });

  it('forgets what could be redone when a new edit is made', () => {
    const state = run([
      { type: 'edited', editId: 'e1' },
      { type: 'undone', editId: 'e1' },
      { type: 'edited', editId: 'e2' },
    ]);
    expect(state).toEqual({ undo: ['e2'], redo: [] });
  });

  it('keeps only the last 50 edits', () => {
    const state = run(Array.from({ length: UNDO_LIMIT + 5 }, (_, i) => ({ type: 'edited' as const, editId: `e${i}` })));
    expect(state.undo).toHaveLength(UNDO_LIMIT);
    expect(state.undo[0]).toBe('e5');
    expect(state.undo.at(-1)).toBe(`e${UNDO_LIMIT + 4}`);
  });

  it('drops an edit the server refused (changed since) from both lists', () => {
    const state = run([
      { type: 'edited', editId: 'e1' },
      { type: 'edited', editId: 'e2' },
      { type: 'undone', editId: 'e2' },
      { type: 'dropped', editId: 'e2' },
      { type: 'dropped', editId: 'e1' },
    ]);
    expect(state).toEqual(EMPTY_UNDO);
  });

  it('takes the stacks the server kept when the editor opens', () => {
    expect(undoReducer(EMPTY_UNDO, { type: 'loaded', stack: { undo: ['e1', 'e2'], redo: ['e3'] } })).toEqual({
      undo: ['e1', 'e2'],
      redo: ['e3'],
    });
  });

  it('keeps what the session did before the stacks arrived on top, and its own redo list', () => {
    const edited = run([{ type: 'edited', editId: 'e4' }]);
    expect(undoReducer(edited, { type: 'loaded', stack: { undo: ['e1', 'e4'], redo: ['e3'] } })).toEqual({
      undo: ['e1', 'e4'],
      redo: [],
    });
  });
});
