// What a segment row may do to the transcript. One stable object for every row (they are memoised
// and must not re-render when the page does).
import { createContext, useContext } from 'react';

export interface TextEditState {
  segmentId: string;
  saving: boolean;
}

export interface EditorActions {
  startText: (segmentId: string) => void;
  saveText: (segmentId: string, text: string) => void;
  cancelText: () => void;
  split: (segmentId: string, wordId: string) => void;
  mergeNext: (segmentId: string) => void;
  reassign: (segmentId: string, speakerId: string) => void;
  /** Shift+click on the word at `index` of the turn. */
  selectWord: (segmentId: string, index: number) => void;
  clearSelection: () => void;
  copyLink: (time: number) => void;
}

export const EditorContext = createContext<EditorActions | null>(null);

export function useEditorActions(): EditorActions {
  const actions = useContext(EditorContext);
  if (!actions) throw new Error('EditorContext is missing');
  return actions;
}
