import type { ReactElement, ReactNode } from 'react';
import { buttonClass } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { formatSize } from '../../lib/format-size';
import { catalogue } from './i18n';
import { isSettled, type KnowledgeFile } from './model';
import type { KnowledgeUpload } from './use-knowledge-upload';

const STATUS_CLASS: Record<KnowledgeFile['status'], string> = {
  queued: 'bg-gray-100 text-gray-800 dark:bg-gray-800 dark:text-gray-200',
  extracting: 'bg-blue-100 text-blue-800 dark:bg-blue-900/40 dark:text-blue-200',
  indexing: 'bg-blue-100 text-blue-800 dark:bg-blue-900/40 dark:text-blue-200',
  ready: 'bg-green-100 text-green-800 dark:bg-green-900/40 dark:text-green-200',
  failed: 'bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-200',
};

function Row({
  name,
  children,
  testId,
  status,
}: {
  name: string;
  children: ReactNode;
  testId: string;
  status: string;
}): ReactElement {
  return (
    <li
      className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start sm:gap-4"
      data-testid={testId}
      data-status={status}
    >
      <p className="min-w-0 flex-1 text-sm font-medium break-words text-gray-900 dark:text-white">{name}</p>
      {children}
    </li>
  );
}

function Progress({ value, label }: { value: number; label: string }): ReactElement {
  return (
    <progress className="h-2 w-full accent-brand-600 sm:w-32" max={100} value={Math.round(value)} aria-label={label} />
  );
}

/** A stored knowledge file: status (with progress while it is being read), pages and passages, or why it failed. */
export function KnowledgeFileRow({
  file,
  onDelete,
}: {
  file: KnowledgeFile;
  onDelete: (() => void) | null;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const busy = !isSettled(file);
  return (
    <Row name={file.name} testId="knowledge-file" status={file.status}>
      <div className="flex flex-col gap-1 sm:w-64">
        <div className="flex flex-wrap items-center gap-2 text-xs text-gray-600 dark:text-gray-400">
          <span
            className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 font-medium ${STATUS_CLASS[file.status]}`}
            data-testid="knowledge-status"
          >
            {busy ? <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-current" /> : null}
            {t(`files.status.${file.status}`)}
          </span>
          <span>{formatSize(file.size)}</span>
          {file.status === 'ready' ? (
            <span>
              {file.pages === null
                ? t('files.chunks', { count: file.chunks })
                : t('files.pagesChunks', { pages: file.pages, count: file.chunks })}
            </span>
          ) : null}
        </div>
        {busy ? <Progress value={file.progress} label={t('files.processing', { name: file.name })} /> : null}
        {file.status === 'failed' && file.error ? (
          <p role="alert" className="text-xs text-red-700 dark:text-red-300" data-testid="knowledge-error">
            {file.error}
          </p>
        ) : null}
      </div>
      {onDelete ? (
        <button
          type="button"
          className={`${buttonClass.danger} self-start`}
          onClick={onDelete}
          aria-label={t('files.deleteNamed', { name: file.name })}
        >
          {t('delete')}
        </button>
      ) : null}
    </Row>
  );
}

/** A file being sent (with its progress and Cancel), or refused by the server (with its reason and Dismiss). */
export function UploadRow({ upload, onCancel }: { upload: KnowledgeUpload; onCancel: () => void }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const refused = upload.phase === 'refused';
  return (
    <Row name={upload.name} testId="knowledge-upload" status={upload.phase}>
      <div className="flex flex-col gap-1 sm:w-64">
        {refused ? (
          <p role="alert" className="text-xs text-red-700 dark:text-red-300" data-testid="upload-error">
            {upload.message ?? t('files.uploadFailed', { status: upload.status ?? 0 })}
          </p>
        ) : (
          <>
            <span className="text-xs text-gray-600 dark:text-gray-400">
              {upload.phase === 'waiting'
                ? t('files.waiting')
                : t('files.uploading', { percent: Math.round(upload.progress * 100) })}
            </span>
            <Progress value={upload.progress * 100} label={t('files.uploadingNamed', { name: upload.name })} />
          </>
        )}
      </div>
      <button type="button" className={`${buttonClass.row} self-start`} onClick={onCancel}>
        {refused ? t('files.dismiss') : t('cancel')}
      </button>
    </Row>
  );
}
