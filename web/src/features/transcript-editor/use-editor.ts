// The editor's state and actions for one transcript: the segment being retyped, the selected words,
// the person's undo stack, and every edit call with its toast.
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import type { Toast } from '../../components/toast';
import { errorMessage } from '../../lib/api';
import { useAppDispatch } from '../../lib/store';
import {
  isStaleEdit,
  useEditSegmentMutation,
  useLazyUndoStackQuery,
  useMergeSegmentMutation,
  useRedoEditMutation,
  useSplitSegmentMutation,
  useUndoEditMutation,
} from './editor-api';
import type { EditorActions, TextEditState } from './editor-context';
import {
  type Segment,
  extendSelection,
  selectedWordIds,
  transcriptsApi,
  type WordSelection,
} from '../../entities/transcripts';
import { EMPTY_UNDO, undoReducer } from './undo-stack';

type Show = (toast: Omit<Toast, 'id'>) => void;

/** The moment's address (`?t=` with tenths of a second), as the viewer opens it. */
export function momentLink(origin: string, fileId: string, time: number): string {
  return `${origin}/transcripts/${encodeURIComponent(fileId)}?t=${Math.max(0, Math.floor(time * 10) / 10)}`;
}

function statusOf(error: unknown): unknown {
  return error && typeof error === 'object' && 'status' in error ? (error as { status: unknown }).status : undefined;
}

export function useEditor(fileId: string, segments: readonly Segment[], show: Show, t: TFunction) {
  const [undo, dispatchUndo] = useReducer(undoReducer, EMPTY_UNDO);
  const [loadUndo] = useLazyUndoStackQuery();
  // The person's stacks as the server keeps them: Undo works after a reload. Read afresh on every
  // open (never from the cache, which would miss edits made since); unread, the session's own works.
  useEffect(() => {
    let current = true;
    loadUndo(fileId)
      .unwrap()
      .then(
        (stack) => current && dispatchUndo({ type: 'loaded', stack }),
        () => undefined,
      );
    return () => {
      current = false;
    };
  }, [fileId, loadUndo]);
  const [textEdit, setTextEdit] = useState<TextEditState | null>(null);
  const [selection, setSelection] = useState<WordSelection | null>(null);
  const segmentsRef = useRef(segments);
  segmentsRef.current = segments;
  const selectionRef = useRef(selection);
  selectionRef.current = selection;

  const [editSegment] = useEditSegmentMutation();
  const [splitSegment] = useSplitSegmentMutation();
  const [mergeSegment] = useMergeSegmentMutation();
  const [undoEdit] = useUndoEditMutation();
  const [redoEdit] = useRedoEditMutation();

  // Someone else edited the transcript since it was read: told until the editor reloads it (a
  // toast would vanish before it is read), while the refused text stays in its field.
  const [stale, setStale] = useState(false);
  const dispatch = useAppDispatch();
  const reload = useCallback(() => {
    setStale(false);
    dispatch(transcriptsApi.util.invalidateTags([{ type: 'Transcript', id: fileId }]));
  }, [dispatch, fileId]);

  const fail = useCallback(
    (error: unknown) => {
      if (isStaleEdit(error)) setStale(true);
      else show({ kind: 'error', title: t('editor.failed'), detail: errorMessage(error) ?? undefined });
    },
    [show, t],
  );

  /** Runs an edit; its id joins the undo stack. Resolves whether it was saved. */
  const perform = useCallback(
    async (call: { unwrap: () => Promise<{ editId: string | null }> }): Promise<boolean> => {
      try {
        const { editId } = await call.unwrap();
        if (editId) dispatchUndo({ type: 'edited', editId });
        return true;
      } catch (error) {
        fail(error);
        return false;
      }
    },
    [fail],
  );

  const actions = useMemo<EditorActions>(
    () => ({
      startText: (segmentId) => setTextEdit({ segmentId, saving: false }),
      cancelText: () => setTextEdit(null),
      saveText: (segmentId, text) => {
        const segment = segmentsRef.current.find((s) => s._id === segmentId);
        const trimmed = text.replace(/\s+/g, ' ').trim();
        if (!segment || !trimmed || trimmed === segment.text.trim()) {
          setTextEdit(null);
          return;
        }
        setTextEdit({ segmentId, saving: true });
        void perform(editSegment({ fileId, segmentId, body: { text: trimmed } })).then((saved) =>
          setTextEdit(saved ? null : { segmentId, saving: false }),
        );
      },
      split: (segmentId, wordId) => void perform(splitSegment({ fileId, segmentId, wordId })),
      mergeNext: (segmentId) => void perform(mergeSegment({ fileId, segmentId })),
      reassign: (segmentId, speakerId) => {
        const segment = segmentsRef.current.find((s) => s._id === segmentId);
        if (!segment) return;
        const wordIds = selectedWordIds(segment, selectionRef.current);
        setSelection(null);
        void perform(editSegment({ fileId, segmentId, body: wordIds ? { speakerId, wordIds } : { speakerId } }));
      },
      selectWord: (segmentId, index) => setSelection((previous) => extendSelection(previous, segmentId, index)),
      clearSelection: () => setSelection(null),
      copyLink: (time) => {
        const link = momentLink(window.location.origin, fileId, time);
        navigator.clipboard.writeText(link).then(
          () => show({ kind: 'success', title: t('editor.linkCopied'), detail: link }),
          () => show({ kind: 'error', title: t('editor.copyFailed'), detail: link }),
        );
      },
    }),
    [editSegment, fileId, mergeSegment, perform, show, splitSegment, t],
  );

  /** Undo (or redo) the person's latest edit; a 409 means it was changed since. */
  const step = useCallback(
    async (direction: 'undo' | 'redo') => {
      const editId = (direction === 'undo' ? undo.undo : undo.redo).at(-1);
      if (!editId) return;
      try {
        await (direction === 'undo' ? undoEdit : redoEdit)({ fileId, editId }).unwrap();
        dispatchUndo({ type: direction === 'undo' ? 'undone' : 'redone', editId });
        show({ kind: 'success', title: t(direction === 'undo' ? 'editor.undone' : 'editor.redone') });
      } catch (error) {
        if (isStaleEdit(error)) fail(error);
        else if (statusOf(error) === 409) {
          dispatchUndo({ type: 'dropped', editId });
          show({ kind: 'error', title: t('editor.changedSince') });
        } else fail(error);
      }
    },
    [fail, fileId, redoEdit, show, t, undo, undoEdit],
  );

  const recordEdit = useCallback((editId: string) => dispatchUndo({ type: 'edited', editId }), []);

  const markStale = useCallback(() => setStale(true), []);

  return { actions, textEdit, selection, undo, step, recordEdit, stale, reload, markStale };
}
