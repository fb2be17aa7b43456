import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState, type ReactElement } from 'react';
import {
  type Segment,
  type Speaker,
  usePlaybackStore,
  type WordSelection,
  viewerCatalogue as catalogue,
} from '../../entities/transcripts';
import { SegmentRow } from './segment-row';
import type { TextEditState } from './editor-context';
import type { WordEditEvent, WordEditState } from './word-edit';
import { useFeatureTranslation } from '../../i18n/feature';

/**
 * The virtualised list of segments: only the rows in view (plus a few) are in the DOM. It follows
 * the playing segment until the person scrolls away; 'Follow playback' (or a click) resumes.
 */
export function SegmentList({
  segments,
  speakers,
  colors,
  edit,
  textEdit,
  selection,
  match,
  dispatchEdit,
  onSave,
}: {
  segments: Segment[];
  speakers: readonly Speaker[];
  colors: Map<string, string>;
  edit: WordEditState;
  textEdit: TextEditState | null;
  selection: WordSelection | null;
  /** The find bar's current match: its row is scrolled into view and outlined. */
  match: string | null;
  dispatchEdit: (event: WordEditEvent) => void;
  onSave: () => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const store = usePlaybackStore();
  const parent = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: segments.length,
    getScrollElement: () => parent.current,
    estimateSize: () => 88,
    overscan: 3,
    getItemKey: (index) => segments[index]!._id,
  });
  const [following, setFollowing] = useState(true);
  const followingRef = useRef(true);
  followingRef.current = following;

  useEffect(() => {
    let last = store.getActive().segmentIndex;
    return store.subscribe(() => {
      const index = store.getActive().segmentIndex;
      if (index === last) return;
      last = index;
      if (index >= 0 && followingRef.current) virtualizer.scrollToIndex(index, { align: 'auto' });
    });
  }, [store, virtualizer]);

  useEffect(() => {
    if (!match) return;
    const index = segments.findIndex((segment) => segment._id === match);
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'center' });
  }, [match, segments, virtualizer]);

  const onUserSeek = useCallback(() => setFollowing(true), []);
  const leave = () => {
    if (followingRef.current && store.isPlaying()) setFollowing(false);
  };
  const resume = () => {
    setFollowing(true);
    const index = store.getActive().segmentIndex;
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'auto' });
  };

  // Each row is positioned on its own, so a later row paints over an earlier one: the row whose
  // menu or word tools are open comes forward.
  return (
    <div className="relative">
      <div
        ref={parent}
        role="list"
        aria-label={t('viewer.segments')}
        data-testid="segment-list"
        onWheel={leave}
        onTouchMove={leave}
        className="h-[calc(100dvh-19rem)] min-h-64 overflow-y-auto rounded-2xl border border-gray-200 bg-white p-2 dark:border-gray-800 dark:bg-gray-900"
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const segment = segments[item.index]!;
            return (
              <div
                key={item.key}
                role="listitem"
                data-index={item.index}
                ref={virtualizer.measureElement}
                className="hover:z-10 focus-within:z-10 has-[[role=menu]]:z-20"
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  width: '100%',
                  transform: `translateY(${item.start}px)`,
                }}
              >
                <SegmentRow
                  segment={segment}
                  speakers={speakers}
                  color={colors.get(segment.speakerId) ?? '#64748b'}
                  edit={edit.status !== 'idle' && edit.segmentId === segment._id ? edit : null}
                  textEdit={textEdit?.segmentId === segment._id ? textEdit : null}
                  selection={selection?.segmentId === segment._id ? selection : null}
                  matched={match === segment._id}
                  dispatchEdit={dispatchEdit}
                  onSave={onSave}
                  onUserSeek={onUserSeek}
                />
              </div>
            );
          })}
        </div>
      </div>
      {!following ? (
        <button
          type="button"
          onClick={resume}
          className="absolute right-4 bottom-4 rounded-full bg-brand-600 px-4 py-2 text-sm font-medium text-white shadow-lg hover:bg-brand-700"
        >
          {t('viewer.follow')}
        </button>
      ) : null}
    </div>
  );
}
