import { useEffect, useRef, useState, type ChangeEvent, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { errorMessage, session } from '../../lib/api';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { PageHeading } from '../../components/page-heading';
import { PageSpinner } from '../../components/spinner';
import { ToastRegion, useToasts } from '../../components/toast';
import { formatDate, formatSize } from './format';
import { isBusy, PAGE_SIZE, POLL_MS, TOAST_MS, type FileItem, type Status } from './model';
import { transcriptsApi, useDeleteFileMutation, useFilesQuery, useTranscribeMutation } from './transcripts-api';
import { uploadFile, type UploadHandle } from './upload';
import { useAppDispatch } from '../../lib/store';

const BADGE: Record<Status, string> = {
  completed: 'bg-green-100 text-green-800 dark:bg-green-900/40 dark:text-green-200',
  failed: 'bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-200',
  processing: 'bg-blue-100 text-blue-800 dark:bg-blue-900/40 dark:text-blue-200',
  pending: 'bg-amber-100 text-amber-800 dark:bg-amber-900/40 dark:text-amber-200',
  not_started: 'bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-300',
};

function StatusBadge({ status, testId }: { status: Status; testId?: string }): ReactElement {
  const { t } = useTranslation();
  return (
    <span data-testid={testId} data-status={status} className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-medium ${BADGE[status] ?? BADGE.not_started}`}>
      {isBusy(status) ? <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-current" /> : null}
      {t(`transcripts.status.${status}`, { defaultValue: status })}
    </span>
  );
}

/** /transcripts: the company's uploaded files with their transcription status. */
export default function TranscriptsPage(): ReactElement {
  const { t, i18n } = useTranslation();
  const dispatch = useAppDispatch();
  const [page, setPage] = useState(1);
  const [polling, setPolling] = useState(false);
  const { data, isLoading, isError, isFetching } = useFilesQuery({ page, pageSize: PAGE_SIZE }, {
    pollingInterval: polling ? POLL_MS : 0,
    skipPollingIfUnfocused: true,
  });
  const items = data?.items ?? [];
  const anyBusy = items.some((item) => isBusy(item.transcriptionStatus) || isBusy(item.status));
  // Poll only while something is pending or processing; stop as soon as nothing is.
  useEffect(() => setPolling(anyBusy), [anyBusy]);
  const totalPages = Math.max(1, data?.totalPages ?? 1);
  useEffect(() => {
    if (data && page > totalPages) setPage(totalPages);
  }, [data, page, totalPages]);

  const { toasts, show, dismiss } = useToasts(TOAST_MS);
  const [upload, setUpload] = useState<{ name: string; progress: number; handle: UploadHandle } | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const onChoose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file || upload) return;
    const handle = uploadFile(file, {
      session,
      dispatch,
      onProgress: (progress) => setUpload((current) => (current ? { ...current, progress } : current)),
    });
    setUpload({ name: file.name, progress: 0, handle });
    const result = await handle.done;
    setUpload(null);
    if (result.ok) {
      show({ kind: 'success', title: t('transcripts.uploadSuccess') });
      setPage(1);
      dispatch(transcriptsApi.util.invalidateTags(['Files']));
    } else if (result.cancelled) {
      show({ kind: 'error', title: t('transcripts.uploadCancelled') });
    } else {
      show({ kind: 'error', title: t('transcripts.uploadError'), detail: result.message });
    }
  };

  const [confirming, setConfirming] = useState<FileItem | null>(null);
  const [deleteFile, deleting] = useDeleteFileMutation();
  const [transcribe] = useTranscribeMutation();

  const onDelete = async () => {
    if (!confirming) return;
    try {
      await deleteFile(confirming._id).unwrap();
      show({ kind: 'success', title: t('transcripts.deleted') });
    } catch (error) {
      show({ kind: 'error', title: t('transcripts.deleteFailed'), detail: errorMessage(error) });
    }
    setConfirming(null);
  };

  const onRetry = async (item: FileItem) => {
    try {
      await transcribe(item._id).unwrap();
      show({ kind: 'success', title: t('transcripts.retryQueued') });
    } catch (error) {
      show({ kind: 'error', title: t('transcripts.retryFailed'), detail: errorMessage(error) });
    }
  };

  const th = 'px-4 py-3 text-left text-xs font-semibold tracking-wide text-gray-600 uppercase dark:text-gray-400';
  const td = 'px-4 py-3 align-top text-sm text-gray-800 dark:text-gray-200';

  return (
    <section aria-labelledby="page-heading">
      <ToastRegion toasts={toasts} onDismiss={dismiss} closeLabel={t('transcripts.close')} />
      <div className="mb-2 flex flex-wrap items-start justify-between gap-4">
        <PageHeading>{t('pages.transcripts')}</PageHeading>
        <div className="flex flex-col items-end gap-2">
          <input ref={input} id="transcript-upload" type="file" accept="audio/*,.mp3,.wav,.m4a,.aac,.ogg,.opus,.webm,.flac" className="sr-only" tabIndex={-1} aria-hidden="true" data-testid="upload-input" onChange={onChoose} disabled={Boolean(upload)} />
          <button
            type="button"
            onClick={() => input.current?.click()}
            disabled={Boolean(upload)}
            className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60"
          >
            {t('transcripts.chooseFile')}
          </button>
        </div>
      </div>

      {upload ? (
        <div className="mb-4 flex items-center gap-3 rounded-xl border border-gray-200 bg-white p-3 dark:border-gray-800 dark:bg-gray-900" data-testid="upload-progress">
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm text-gray-700 dark:text-gray-300">{t('transcripts.uploading', { name: upload.name })}</p>
            <progress className="mt-2 h-2 w-full accent-brand-600" max={100} value={Math.round(upload.progress * 100)} aria-label={t('transcripts.uploading', { name: upload.name })} />
          </div>
          <span className="w-12 text-right text-sm tabular-nums text-gray-600 dark:text-gray-400">{Math.round(upload.progress * 100)}%</span>
          <button type="button" onClick={() => upload.handle.cancel()} className="rounded-lg border border-gray-300 px-3 py-1.5 text-sm hover:bg-gray-50 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800">
            {t('transcripts.cancelUpload')}
          </button>
        </div>
      ) : null}

      <div className="overflow-x-auto rounded-2xl border border-gray-200 bg-white dark:border-gray-800 dark:bg-gray-900">
        {isLoading ? (
          <PageSpinner label={t('common.loading')} />
        ) : isError ? (
          <p role="alert" className="p-6 text-sm text-red-700 dark:text-red-300">{t('transcripts.listError')}</p>
        ) : (
          <table className="min-w-full divide-y divide-gray-200 dark:divide-gray-800" data-testid="files-table" aria-busy={isFetching}>
            <thead className="bg-gray-50 dark:bg-gray-800/50">
              <tr>
                <th scope="col" className={th}>{t('transcripts.columns.name')}</th>
                <th scope="col" className={th}>{t('transcripts.columns.fileStatus')}</th>
                <th scope="col" className={th}>{t('transcripts.columns.transcriptionStatus')}</th>
                <th scope="col" className={th}>{t('transcripts.columns.size')}</th>
                <th scope="col" className={th}>{t('transcripts.columns.uploadDate')}</th>
                <th scope="col" className={th}>{t('transcripts.columns.actions')}</th>
                {/* Spec part 2: the client column is in English only. */}
                <th scope="col" className={th} lang="en">Client</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100 dark:divide-gray-800">
              {items.length === 0 ? (
                <tr>
                  <td colSpan={7} className="px-4 py-10 text-center text-sm text-gray-500 dark:text-gray-400" data-testid="files-empty">{t('transcripts.noFiles')}</td>
                </tr>
              ) : items.map((item) => (
                <tr key={item._id} data-testid="file-row" data-file-id={item._id}>
                  <td className={`${td} max-w-xs break-words font-medium`} data-testid="file-name">{item.originalName}</td>
                  <td className={td}><StatusBadge status={item.status} /></td>
                  <td className={td}>
                    <StatusBadge status={item.transcriptionStatus} testId="transcription-status" />
                    {item.transcriptionStatus === 'failed' ? (
                      <div className="mt-2 max-w-xs">
                        {item.transcriptionError ? <p className="text-xs text-red-700 dark:text-red-300" data-testid="failure-reason">{item.transcriptionError}</p> : null}
                        <button type="button" onClick={() => void onRetry(item)} className="mt-1 text-xs font-medium text-brand-700 underline hover:text-brand-900 dark:text-brand-300">
                          {t('transcripts.retry')}
                        </button>
                      </div>
                    ) : null}
                  </td>
                  <td className={`${td} whitespace-nowrap tabular-nums`}>{formatSize(item.size)}</td>
                  <td className={`${td} whitespace-nowrap`}>{formatDate(item.uploadDate, i18n.language)}</td>
                  <td className={`${td} whitespace-nowrap`}>
                    <div className="flex items-center gap-2">
                      <Link to={`/transcripts/${item._id}`} className="rounded-lg bg-brand-50 px-3 py-1.5 text-xs font-medium text-brand-800 hover:bg-brand-100 dark:bg-brand-900/40 dark:text-brand-100" data-testid="view-transcript">
                        {t('transcripts.view')}
                      </Link>
                      <button type="button" onClick={() => setConfirming(item)} aria-label={`${t('transcripts.delete')}: ${item.originalName}`} className="rounded-lg px-3 py-1.5 text-xs font-medium text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950" data-testid="delete-file">
                        {t('transcripts.delete')}
                      </button>
                    </div>
                  </td>
                  <td className={`${td} whitespace-nowrap text-gray-500`} lang="en">{item.clientId ? item.clientId.slice(0, 8) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>

      <nav className="mt-4 flex items-center justify-between gap-4" aria-label={t('transcripts.pageOf', { page, total: totalPages })}>
        <p className="text-sm text-gray-600 dark:text-gray-400" data-testid="page-info">{t('transcripts.pageOf', { page, total: totalPages })}</p>
        <div className="flex gap-2">
          <button type="button" onClick={() => setPage((p) => Math.max(1, p - 1))} disabled={page <= 1} className="rounded-lg border border-gray-300 px-3 py-1.5 text-sm disabled:opacity-50 dark:border-gray-700 dark:text-gray-200">
            {t('transcripts.previous')}
          </button>
          <button type="button" onClick={() => setPage((p) => Math.min(totalPages, p + 1))} disabled={page >= totalPages} className="rounded-lg border border-gray-300 px-3 py-1.5 text-sm disabled:opacity-50 dark:border-gray-700 dark:text-gray-200">
            {t('transcripts.next')}
          </button>
        </div>
      </nav>

      <ConfirmDialog
        open={confirming !== null}
        message={t('transcripts.deleteConfirm')}
        confirmLabel={t('transcripts.delete')}
        cancelLabel={t('transcripts.cancel')}
        busy={deleting.isLoading}
        onConfirm={() => void onDelete()}
        onCancel={() => setConfirming(null)}
      />
    </section>
  );
}
