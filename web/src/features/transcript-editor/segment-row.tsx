import { memo, type ReactElement } from 'react';
import { speakerName } from '@earshot/contracts/constants';
import {
  type Segment,
  type Speaker,
  type Word,
  seek,
  seekAndPlay,
  usePlayer,
  usePlaybackStore,
  useRowHighlight,
  speakerInitial,
  type WordSelection,
} from '../../entities/transcripts';
import { SegmentMenu } from './segment-menu';
import { SegmentTextEdit } from './segment-text-edit';
import { SegmentWords } from './segment-words';
import type { TextEditState } from './editor-context';
import type { WordEditEvent, WordEditState } from './word-edit';

export interface SegmentRowProps {
  segment: Segment;
  /** The transcript's speakers, for their names (speakerName: "Agent", "Speaker 1", a given name…). */
  speakers: readonly Speaker[];
  color: string;
  /** The edit state, only for the row whose word is being edited (other rows get null and skip re-rendering). */
  edit: WordEditState | null;
  /** Likewise: the text edit, the selected words and the find bar's current match, only for their row. */
  textEdit: TextEditState | null;
  selection: WordSelection | null;
  matched: boolean;
  dispatchEdit: (event: WordEditEvent) => void;
  onSave: () => void;
  onUserSeek: () => void;
}

/** One speaker segment: circle, speaker name and the turn's menu, words (or its text being edited). */
export const SegmentRow = memo(function SegmentRow({
  segment,
  speakers,
  color,
  edit,
  textEdit,
  selection,
  matched,
  dispatchEdit,
  onSave,
  onUserSeek,
}: SegmentRowProps): ReactElement {
  const store = usePlaybackStore();
  const player = usePlayer();
  const highlight = useRowHighlight(segment._id);
  const current = highlight !== null;
  const speaker = speakerName(segment.speakerId, speakers);

  const onWordClick = (word: Word) => {
    onUserSeek();
    seekAndPlay(player, store, word.start);
  };

  return (
    <div
      data-testid="segment"
      data-segment-id={segment._id}
      data-current={current ? 'true' : undefined}
      data-match={matched ? 'true' : undefined}
      onClick={(event) => {
        // A click on the segment (not on a word or a control) seeks to its start.
        if (textEdit || (event.target as HTMLElement).closest('button,input,textarea,[role="menu"]')) return;
        onUserSeek();
        seek(player, store, segment.start);
      }}
      className={`flex cursor-pointer gap-3 rounded-xl px-3 py-3 ${matched ? 'ring-2 ring-amber-400 dark:ring-amber-500' : ''}`}
      style={current ? { backgroundColor: `${color}1f` } : undefined}
    >
      <span
        aria-hidden="true"
        className="mt-0.5 inline-flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-semibold text-white"
        style={{ backgroundColor: color }}
        data-testid="speaker-circle"
      >
        {speakerInitial(speaker)}
      </span>
      <div className="min-w-0 flex-1">
        <div className="mb-1 flex items-center gap-2">
          <p
            className="min-w-0 truncate text-xs font-medium text-gray-600 dark:text-gray-400"
            data-testid="speaker-name"
          >
            {speaker}
          </p>
          <SegmentMenu segment={segment} speakers={speakers} hasSelection={selection !== null} />
        </div>
        {textEdit ? (
          <SegmentTextEdit segmentId={segment._id} text={segment.text} saving={textEdit.saving} />
        ) : (
          <SegmentWords
            segment={segment}
            highlight={highlight}
            edit={edit}
            selection={selection}
            dispatchEdit={dispatchEdit}
            onSave={onSave}
            onWordClick={onWordClick}
          />
        )}
      </div>
    </div>
  );
});
