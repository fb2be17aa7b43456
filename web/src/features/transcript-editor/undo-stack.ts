// The person's undo and redo: the ids of their last 50 edits. The server does the work (its
// undo/redo routes answer patches) and keeps each person's stacks, read when the editor opens
// (`loaded`), so undo survives a reload; this follows the session's edits and remembers what to
// ask for, and in which order.
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
  | { type: 'dropped'; editId: string }
  /** The person's stacks as the server keeps them, read when the editor opened. */
  | { type: 'loaded'; stack: UndoStack };

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
    case 'loaded': {
      // The answer may cross this session's first edits: what the session did stays on top, and
      // once it has done anything its redo list is the one that holds.
      const session = new Set([...state.undo, ...state.redo]);
      const older = event.stack.undo.filter((id) => !session.has(id));
      const fresh = state.undo.length === 0 && state.redo.length === 0;
      return {
        undo: [...older, ...state.undo].slice(-UNDO_LIMIT),
        redo: fresh ? event.stack.redo.slice(-UNDO_LIMIT) : state.redo,
      };
    }
  }
}
