// The inline word edit as the page runs it: the state machine, the call, the cache
// update and the spec's toasts.
import { useCallback, useReducer, useRef } from 'react';
import type { TFunction } from 'i18next';
import type { Toast } from '../../components/toast';
import { useAppDispatch } from '../../lib/store';
import { type Transcript, transcriptsApi, useUpdateWordMutation } from '../../entities/transcripts';
import { editorApi, isStaleEdit } from './editor-api';
import { IDLE, outcomeOf, wordEditReducer } from './word-edit';

/**
 * `onEdited` gets the id of the edit a saved word made, for the session's undo stack; `onStale`
 * is told when the word was refused because someone else changed the transcript since.
 */
export function useWordEdit(
  fileId: string,
  data: Transcript | undefined,
  show: (toast: Omit<Toast, 'id'>) => void,
  t: TFunction,
  onEdited: (editId: string) => void,
  onStale: () => void,
) {
  const dispatch = useAppDispatch();
  const [edit, dispatchEdit] = useReducer(wordEditReducer, IDLE);
  const editRef = useRef(edit);
  editRef.current = edit;
  const [updateWord] = useUpdateWordMutation();
  const onSave = useCallback(async () => {
    const current = editRef.current;
    if (current.status !== 'editing' || !data) return;
    const text = current.draft.trim();
    if (text === current.original) {
      dispatchEdit({ type: 'cancel' });
      return;
    }
    dispatchEdit({ type: 'submit' });
    let outcome: 'updated' | 'failed' | 'stale';
    let editId: string | null = null;
    let version: number | undefined;
    try {
      const answer = await updateWord({
        transcriptId: data._id,
        wordId: current.wordId,
        text,
        speakerSegmentId: current.segmentId,
        baseVersion: data.version,
      }).unwrap();
      outcome = outcomeOf(answer);
      editId = answer.editId;
      version = answer.version;
    } catch (error) {
      outcome = isStaleEdit(error) ? 'stale' : 'failed';
    }
    if (outcome === 'updated') {
      dispatch(
        transcriptsApi.util.updateQueryData('transcript', fileId, (draft) => {
          const segment = draft.metadata.speakerSegments.find((s) => s._id === current.segmentId);
          const word = segment?.words.find((w) => w._id === current.wordId);
          if (segment && word) {
            word.text = text;
            segment.text = segment.words.map((w) => w.text).join(' ');
          }
          if (version !== undefined) draft.version = version;
        }),
      );
      // The word edit is recorded as an edit too: the history shows it.
      dispatch(editorApi.util.invalidateTags(['TranscriptEdits']));
      if (editId) onEdited(editId);
      show({ kind: 'success', title: t('viewer.wordUpdated') });
    } else if (outcome === 'stale') {
      onStale();
      dispatchEdit({ type: 'refused' });
      return;
    } else {
      show({ kind: 'error', title: t('viewer.wordFailed') });
    }
    dispatchEdit({ type: 'done' });
  }, [data, dispatch, fileId, onEdited, onStale, show, t, updateWord]);
  const save = useCallback(() => void onSave(), [onSave]);
  return { edit, dispatchEdit, save };
}
