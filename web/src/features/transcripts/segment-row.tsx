import { memo, useState, type KeyboardEvent, type ReactElement } from 'react';
import { speakerName } from '@earshot/contracts/constants';
import type { Segment, Speaker, Word } from './model';
import { seek, seekAndPlay, usePlayer } from './player';
import { usePlaybackStore, useRowHighlight } from './playback-store';
import { speakerInitial } from './speaker-colors';
import { inputWidth, type WordEditEvent, type WordEditState } from './word-edit';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './viewer-i18n';

export interface SegmentRowProps {
  segment: Segment;
  /** The transcript's speakers, for their names (speakerName: "Agent", "Speaker 1"…). */
  speakers: readonly Speaker[];
  color: string;
  /** The edit state, only for the row whose word is being edited (other rows get null and skip re-rendering). */
  edit: WordEditState | null;
  dispatchEdit: (event: WordEditEvent) => void;
  onSave: () => void;
  onUserSeek: () => void;
}

function PencilIcon(): ReactElement {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="size-3.5" fill="currentColor">
      <path d="M13.6 2.6a2 2 0 0 1 2.8 0l1 1a2 2 0 0 1 0 2.8l-9.3 9.3-4.1 1.1 1.1-4.1 8.5-8.1Z" />
    </svg>
  );
}

/** One speaker segment: circle, speaker name, words. Re-renders only when its own highlight changes. */
export const SegmentRow = memo(function SegmentRow({ segment, speakers, color, edit, dispatchEdit, onSave, onUserSeek }: SegmentRowProps): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const store = usePlaybackStore();
  const player = usePlayer();
  const highlight = useRowHighlight(segment._id);
  const [hovered, setHovered] = useState<string | null>(null);
  const current = highlight !== null;
  const editing = edit && edit.status !== 'idle' ? edit : null;
  const speaker = speakerName(segment.speakerId, speakers);

  const onWordClick = (word: Word) => {
    onUserSeek();
    seekAndPlay(player, store, word.start);
  };
  const onInputKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      onSave();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      dispatchEdit({ type: 'cancel' });
    }
  };

  return (
    <div
      data-testid="segment"
      data-segment-id={segment._id}
      data-current={current ? 'true' : undefined}
      onClick={(event) => {
        // A click on the segment (not on a word or a control) seeks to its start.
        if ((event.target as HTMLElement).closest('button,input')) return;
        onUserSeek();
        seek(player, store, segment.start);
      }}
      className="flex cursor-pointer gap-3 rounded-xl px-3 py-3"
      style={current ? { backgroundColor: `${color}1f` } : undefined}
    >
      <span aria-hidden="true" className="mt-0.5 inline-flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-semibold text-white" style={{ backgroundColor: color }} data-testid="speaker-circle">
        {speakerInitial(speaker)}
      </span>
      <div className="min-w-0 flex-1">
        <p className="mb-1 text-xs font-medium text-gray-500 dark:text-gray-400" data-testid="speaker-name">{speaker}</p>
        <p className="leading-7">
          {segment.words.map((word) => {
            const active = highlight === word._id;
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
                  <button type="button" onClick={onSave} disabled={editing.status === 'saving'} data-testid="word-save" className="rounded bg-brand-600 px-1.5 py-0.5 text-xs text-white disabled:opacity-60">{t('viewer.save')}</button>
                  <button type="button" onClick={() => dispatchEdit({ type: 'cancel' })} disabled={editing.status === 'saving'} className="rounded border border-gray-300 px-1.5 py-0.5 text-xs text-gray-700 dark:border-gray-600 dark:text-gray-200">{t('viewer.cancel')}</button>
                </span>
              );
            }
            return (
              <span key={word._id} className="relative inline" onMouseEnter={() => setHovered(word._id)} onMouseLeave={() => setHovered((h) => (h === word._id ? null : h))}>
                <button
                  type="button"
                  data-word-id={word._id}
                  data-active={active ? 'true' : undefined}
                  onClick={() => onWordClick(word)}
                  onFocus={() => setHovered(word._id)}
                  className={`rounded px-0.5 ${active ? 'font-bold text-black dark:text-white' : 'text-gray-500 dark:text-gray-400'} hover:bg-gray-100 dark:hover:bg-gray-800`}
                >
                  {word.text}
                </button>
                {hovered === word._id ? (
                  <button
                    type="button"
                    aria-label={t('viewer.editWord', { word: word.text })}
                    data-testid="word-edit"
                    onClick={() => dispatchEdit({ type: 'start', wordId: word._id, segmentId: segment._id, text: word.text })}
                    className="absolute bottom-[60%] left-[75%] z-10 rounded-full border border-gray-200 bg-white p-1 text-gray-600 shadow hover:text-brand-700 dark:border-gray-700 dark:bg-gray-800 dark:text-gray-300"
                  >
                    <PencilIcon />
                  </button>
                ) : null}{' '}
              </span>
            );
          })}
        </p>
      </div>
    </div>
  );
});
