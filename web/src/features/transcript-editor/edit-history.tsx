import { useState, type ReactElement } from 'react';
import type { TranscriptEditItem } from '@earshot/contracts';
import { Modal } from '../../components/modal';
import { useEditsQuery } from './editor-api';
import { useFeatureTranslation } from '../../i18n/feature';
import { viewerCatalogue as catalogue } from '../../entities/transcripts';
import { catalogue as editorCatalogue } from './editor-i18n';

function when(iso: string, language: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? '—'
    : new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

function EditRow({ item }: { item: TranscriptEditItem }): ReactElement {
  const { t, i18n } = useFeatureTranslation(editorCatalogue, catalogue);
  return (
    <li
      className="border-b border-gray-100 py-3 last:border-0 dark:border-gray-800"
      data-testid="edit-item"
      data-kind={item.kind}
    >
      <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-gray-900 dark:text-gray-100">
        {t(`editor.kinds.${item.kind}`)}
        {item.undone ? (
          <span className="rounded-full bg-gray-100 px-2 text-xs font-normal text-gray-600 dark:bg-gray-800 dark:text-gray-300">
            {t('editor.undoneBadge')}
          </span>
        ) : null}
      </p>
      <p className="break-words text-sm text-gray-700 dark:text-gray-300">{item.summary}</p>
      <p className="text-xs text-gray-500 dark:text-gray-400">
        {item.actor?.name ?? t('editor.system')} ·{' '}
        <time dateTime={item.createdAt}>{when(item.createdAt, i18n.language)}</time>
      </p>
    </li>
  );
}

/** One page of the history; the last page shown offers Load more with its cursor. */
function EditsPage({
  fileId,
  cursor,
  last,
  onMore,
}: {
  fileId: string;
  cursor: string | undefined;
  last: boolean;
  onMore: (cursor: string) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(editorCatalogue, catalogue);
  const { data, isLoading, isError } = useEditsQuery({ fileId, cursor });
  if (isLoading)
    return (
      <p className="py-3 text-sm text-gray-500" role="status">
        …
      </p>
    );
  if (isError || !data)
    return (
      <p role="alert" className="py-3 text-sm text-red-700 dark:text-red-300">
        {t('editor.historyFailed')}
      </p>
    );
  if (!cursor && data.items.length === 0)
    return <p className="py-3 text-sm text-gray-500 dark:text-gray-400">{t('editor.historyEmpty')}</p>;
  return (
    <>
      <ul>
        {data.items.map((item) => (
          <EditRow key={item._id} item={item} />
        ))}
      </ul>
      {last && data.nextCursor ? (
        <button
          type="button"
          onClick={() => onMore(data.nextCursor!)}
          className="mt-3 rounded-lg border border-gray-300 px-3 py-1.5 text-sm text-gray-700 hover:bg-gray-50 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800"
        >
          {t('editor.loadMore')}
        </button>
      ) : null}
    </>
  );
}

/** The "Edit history" drawer: who changed what, when (newest first, keyset pages). */
export function EditHistory({
  fileId,
  open,
  onClose,
}: {
  fileId: string;
  open: boolean;
  onClose: () => void;
}): ReactElement {
  const { t } = useFeatureTranslation(editorCatalogue, catalogue);
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  return (
    <Modal open={open} label={t('editor.history')} onClose={onClose} testId="edit-history" placement="drawer">
      <div className="mb-2 flex items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{t('editor.history')}</h2>
        <button
          type="button"
          onClick={onClose}
          aria-label={t('editor.close')}
          className="rounded-lg px-2 py-1 text-gray-500 hover:bg-gray-100 dark:hover:bg-gray-800"
        >
          ✕
        </button>
      </div>
      {cursors.map((cursor, index) => (
        <EditsPage
          key={cursor ?? 'first'}
          fileId={fileId}
          cursor={cursor}
          last={index === cursors.length - 1}
          onMore={(next) => setCursors((list) => [...list, next])}
        />
      ))}
    </Modal>
  );
}
