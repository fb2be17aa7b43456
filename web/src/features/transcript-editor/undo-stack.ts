// The session's undo and redo: the ids of the last 50 edits made here. The server does the work
// (its undo/redo routes answer patches); this only remembers what to ask for, and in which order.
export const UNDO_LIMIT = 50;

export interface UndoStack {
  undo: readonly string[];
  redo: readonly string[];
}

export type UndoEvent =
  | { type: 'edited'; editId: string }
  | { type: 'undone'; editId: string }
  | { type: 'redone'; editId: string }
  /** The server refused (changed since): the edit can no longer be undone or redone from here. */
  | { type: 'dropped'; editId: string };

export const EMPTY_UNDO: UndoStack = { undo: [], redo: [] };

const without = (ids: readonly string[], editId: string) => ids.filter((id) => id !== editId);
const pushed = (ids: readonly string[], editId: string) => [...without(ids, editId), editId].slice(-UNDO_LIMIT);

export function undoReducer(state: UndoStack, event: UndoEvent): UndoStack {
  switch (event.type) {
    case 'edited':
      // A new edit makes the redo list meaningless (as in every editor).
      return { undo: pushed(state.undo, event.editId), redo: [] };
    case 'undone':
      return { undo: without(state.undo, event.editId), redo: pushed(state.redo, event.editId) };
    case 'redone':
      return { undo: pushed(state.undo, event.editId), redo: without(state.redo, event.editId) };
    case 'dropped':
      return { undo: without(state.undo, event.editId), redo: without(state.redo, event.editId) };
  }
}
