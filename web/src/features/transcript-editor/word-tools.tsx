import type { ReactElement, ReactNode } from 'react';
import { type Word, viewerCatalogue as catalogue } from '../../entities/transcripts';
import { useEditorActions } from './editor-context';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue as editorCatalogue } from './editor-i18n';

const toolClass =
  'rounded-full p-1 text-gray-600 hover:bg-gray-100 hover:text-brand-700 dark:text-gray-300 dark:hover:bg-gray-700';

function Icon({ children }: { children: ReactNode }): ReactElement {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      className="size-3.5"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {children}
    </svg>
  );
}

/** The small tools over the word under the pointer (or focus): edit it, split the turn before it, copy a link to it. */
export function WordTools({
  word,
  segmentId,
  first,
  onEdit,
}: {
  word: Word;
  segmentId: string;
  first: boolean;
  onEdit: () => void;
}): ReactElement {
  const { t } = useFeatureTranslation(editorCatalogue, catalogue);
  const actions = useEditorActions();
  return (
    <span className="absolute bottom-[60%] left-[75%] z-10 inline-flex rounded-full border border-gray-200 bg-white shadow dark:border-gray-700 dark:bg-gray-800">
      <button
        type="button"
        aria-label={t('viewer.editWord', { word: word.text })}
        data-testid="word-edit"
        onClick={onEdit}
        className={toolClass}
      >
        <Icon>
          <path d="M13.6 3.4 16.6 6.4 7.5 15.5 4 16.5 5 13Z" />
        </Icon>
      </button>
      {first ? null : (
        <button
          type="button"
          aria-label={t('editor.splitAt', { word: word.text })}
          data-testid="word-split"
          onClick={() => actions.split(segmentId, word._id)}
          className={toolClass}
        >
          <Icon>
            <circle cx="5" cy="6" r="2" />
            <circle cx="5" cy="14" r="2" />
            <path d="M7 7.5 16 14M7 12.5 16 6" />
          </Icon>
        </button>
      )}
      <button
        type="button"
        aria-label={t('editor.copyLink')}
        data-testid="word-link"
        onClick={() => actions.copyLink(word.start)}
        className={toolClass}
      >
        <Icon>
          <path d="M8.5 11.5a3 3 0 0 0 4.2 0l2.6-2.6a3 3 0 0 0-4.2-4.2L10 5.8M11.5 8.5a3 3 0 0 0-4.2 0l-2.6 2.6a3 3 0 0 0 4.2 4.2l1.1-1.1" />
        </Icon>
      </button>
    </span>
  );
}
