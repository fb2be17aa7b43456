import type { ReactElement } from 'react';
import { speakerName } from '@earshot/contracts/constants';
import { DropdownMenu, type MenuEntry } from '../../components/dropdown-menu';
import { useEditorActions } from './editor-context';
import { type Segment, type Speaker, viewerCatalogue as catalogue } from '../../entities/transcripts';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue as editorCatalogue } from './editor-i18n';

/** The turn's actions: retype it, merge it with the next, give it (or its selected words) to another speaker. */
export function SegmentMenu({
  segment,
  speakers,
  hasSelection,
}: {
  segment: Segment;
  speakers: readonly Speaker[];
  hasSelection: boolean;
}): ReactElement {
  const { t } = useFeatureTranslation(editorCatalogue, catalogue);
  const actions = useEditorActions();
  const others = speakers.filter((speaker) => speaker.id !== segment.speakerId);
  const entries: MenuEntry[] = [
    {
      key: 'text',
      label: t('editor.editText'),
      onSelect: () => actions.startText(segment._id),
      testId: 'segment-edit-text',
    },
    {
      key: 'merge',
      label: t('editor.mergeNext'),
      onSelect: () => actions.mergeNext(segment._id),
      testId: 'segment-merge-next',
    },
    ...others.map((speaker) => ({
      key: `to-${speaker.id}`,
      label: t(hasSelection ? 'editor.assignWordsTo' : 'editor.assignTo', { name: speakerName(speaker.id, speakers) }),
      onSelect: () => actions.reassign(segment._id, speaker.id),
      testId: 'segment-assign',
    })),
  ];
  return (
    <DropdownMenu
      label={t('editor.segmentActions', { name: speakerName(segment.speakerId, speakers) })}
      button={
        <span aria-hidden="true" className="text-base leading-none">
          ⋯
        </span>
      }
      entries={entries}
      testId="segment-menu"
      buttonClassName="rounded-lg px-2 py-0.5 text-gray-500 hover:bg-gray-100 hover:text-gray-800 dark:text-gray-400 dark:hover:bg-gray-800 dark:hover:text-gray-100"
    />
  );
}
