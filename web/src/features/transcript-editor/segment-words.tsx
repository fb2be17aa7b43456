import { useState, type KeyboardEvent, type MouseEvent, type ReactElement } from 'react';
import {
  type Segment,
  type Word,
  isUnsure,
  type WordSelection,
  viewerCatalogue as catalogue,
} from '../../entities/transcripts';
import { useEditorActions } from './editor-context';
import { WordTools } from './word-tools';
import { inputWidth, type WordEditEvent, type WordEditState } from './word-edit';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue as editorCatalogue } from './editor-i18n';

/** A turn's words: click plays from a word, Shift+click selects a run; the hovered word gets its tools. */
export function SegmentWords({
  segment,
  highlight,
  edit,
  selection,
  dispatchEdit,
  onSave,
  onWordClick,
}: {
  segment: Segment;
  /** The spoken word's id ('' or null: none of these). */
  highlight: string | null;
  edit: WordEditState | null;
  selection: WordSelection | null;
  dispatchEdit: (event: WordEditEvent) => void;
  onSave: () => void;
  onWordClick: (word: Word) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(editorCatalogue, catalogue);
  const actions = useEditorActions();
  const [hovered, setHovered] = useState<string | null>(null);
  const editing = edit && edit.status !== 'idle' ? edit : null;

  const onInputKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      onSave();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      dispatchEdit({ type: 'cancel' });
    }
  };
  const onClick = (event: MouseEvent, word: Word, index: number) => {
    if (event.shiftKey) actions.selectWord(segment._id, index);
    else {
      if (selection) actions.clearSelection();
      onWordClick(word);
    }
  };

  return (
    <p className="leading-7">
      {segment.words.map((word, index) => {
        if (editing && editing.wordId === word._id) {
          return (
            <span key={word._id} className="mx-0.5 inline-flex items-center gap-1 align-middle">
              <input
                autoFocus
                value={editing.draft}
                disabled={editing.status === 'saving'}
                aria-label={t('viewer.wordInput')}
                data-testid="word-input"
                onChange={(event) => dispatchEdit({ type: 'change', draft: event.target.value })}
                onKeyDown={onInputKey}
                style={{ width: inputWidth(editing.draft), minWidth: 40, maxWidth: 120 }}
                className="rounded border border-brand-400 bg-white px-1 py-0.5 text-sm text-gray-900 dark:bg-gray-800 dark:text-white"
              />
              <button
                type="button"
                onClick={onSave}
                disabled={editing.status === 'saving'}
                data-testid="word-save"
                className="rounded bg-brand-600 px-1.5 py-0.5 text-xs text-white disabled:opacity-60"
              >
                {t('viewer.save')}
              </button>
              <button
                type="button"
                onClick={() => dispatchEdit({ type: 'cancel' })}
                disabled={editing.status === 'saving'}
                className="rounded border border-gray-300 px-1.5 py-0.5 text-xs text-gray-700 dark:border-gray-600 dark:text-gray-200"
              >
                {t('viewer.cancel')}
              </button>
            </span>
          );
        }
        const active = highlight === word._id;
        const selected = selection !== null && index >= selection.from && index <= selection.to;
        const unsure = isUnsure(word);
        return (
          <span
            key={word._id}
            className="relative inline"
            onMouseEnter={() => setHovered(word._id)}
            onMouseLeave={() => setHovered((h) => (h === word._id ? null : h))}
          >
            <button
              type="button"
              data-word-id={word._id}
              data-active={active ? 'true' : undefined}
              data-unsure={unsure ? 'true' : undefined}
              aria-pressed={selection ? selected : undefined}
              title={unsure ? t('editor.unsure', { percent: Math.round((word.confidence ?? 0) * 100) }) : undefined}
              onClick={(event) => onClick(event, word, index)}
              onFocus={() => setHovered(word._id)}
              className={`rounded px-0.5 ${active ? 'font-bold text-black dark:text-white' : 'text-gray-600 dark:text-gray-400'} ${selected ? 'bg-brand-100 dark:bg-brand-900/60' : 'hover:bg-gray-100 dark:hover:bg-gray-800'} ${unsure ? 'underline decoration-amber-500 decoration-dotted decoration-2 underline-offset-4' : ''}`}
            >
              {word.text}
            </button>
            {hovered === word._id ? (
              <WordTools
                word={word}
                segmentId={segment._id}
                first={index === 0}
                onEdit={() =>
                  dispatchEdit({ type: 'start', wordId: word._id, segmentId: segment._id, text: word.text })
                }
              />
            ) : null}{' '}
          </span>
        );
      })}
    </p>
  );
}
