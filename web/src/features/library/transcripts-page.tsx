import { useCallback, useEffect, useMemo, useRef, useState, type ReactElement } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useCompanyOptionsQuery } from '../../entities/companies';
import { HoldBadge } from '../../entities/holds';
import { errorMessage } from '../../lib/api';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { fieldInputClass } from '../../components/form-field';
import { PageHeading } from '../../components/page-heading';
import { Pager } from '../../components/pager';
import { ScrollHint } from '../../components/scroll-hint';
import { PageSpinner } from '../../components/spinner';
import { StatusBadge } from '../../components/status-badge';
import { ToastRegion, useToasts } from '../../components/toast';
import { useFeatureTranslation } from '../../i18n/feature';
import {
  LibraryFiltersForm,
  libraryApi,
  mayReadClients,
  useClientOptionsQuery,
  useTagsQuery,
  filtersFromParams,
  paramsWithFilters,
  type LibraryFilters,
} from '../../entities/recordings';
import { useAppDispatch, useAppSelector } from '../../lib/store';
import { roleOf } from '../../lib/stored-user';
import { BulkUploadControls, DropZone, SpeakerSeparationNote, UploadTray, useUploadQueue } from './bulk-upload';
import {
  formatDate,
  formatSize,
  isBusy,
  PAGE_SIZE,
  POLL_MS,
  TOAST_MS,
  type FileItem,
  useDeleteFileMutation,
  useFilesQuery,
  useTranscribeMutation,
} from '../../entities/transcripts';
import { catalogue } from './i18n';
import { catalogue as libraryCatalogue } from './library-i18n';
import { ExportSelected } from './export-selected';
import { TagEditor } from './tag-editor';
import { mayReadQueue, useCompanyQueueQuery } from './queue-api';
import { QueuePosition, QueueSummary } from './queue-status';
import type { BatchFields, QueueItem } from './upload-queue';

/** /transcripts: the company's recordings, their tags and transcription status; bulk upload, filters, export. */
export default function TranscriptsPage(): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue, libraryCatalogue);
  const dispatch = useAppDispatch();
  const role = useAppSelector((state) => roleOf(state.session.user));
  const isHost = role === 'HOST_ADMIN';
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromParams(params), [params]);
  const filterKey = paramsWithFilters(new URLSearchParams(), filters).toString();
  const [page, setPage] = useState(1);
  const [polling, setPolling] = useState(false);
  const { data, isLoading, isError, isFetching } = useFilesQuery(
    { page, pageSize: PAGE_SIZE, ...filters },
    {
      pollingInterval: polling ? POLL_MS : 0,
      skipPollingIfUnfocused: true,
    },
  );
  // Only what the role may read: a USER asking for clients would get a 403 (and a console error).
  const clients = useClientOptionsQuery(filters.companyId, { skip: !mayReadClients(role) });
  const companies = useCompanyOptionsQuery(undefined, { skip: !isHost });
  // A HOST_ADMIN belongs to no company: tags are one company's, so they need it chosen.
  const tags = useTagsQuery(filters.companyId, { skip: isHost && !filters.companyId });
  const clientNames = useMemo(
    () => new Map((clients.data ?? []).map((client) => [client._id, client.name])),
    [clients.data],
  );
  const companyNames = useMemo(
    () => new Map((companies.data ?? []).map((company) => [company._id, company.name])),
    [companies.data],
  );
  const tagNames = useMemo(() => (tags.data ?? []).map((tag) => tag.name), [tags.data]);
  const items = useMemo(() => data?.items ?? [], [data]);
  const anyBusy = items.some((item) => isBusy(item.transcriptionStatus) || isBusy(item.status));
  // Poll only while something is pending or processing; stop as soon as nothing is.
  useEffect(() => setPolling(anyBusy), [anyBusy]);
  // The company's line (cap, running, each waiting file's place): its ADMIN's to see, while anything waits.
  const companyQueue = useCompanyQueueQuery(filters.companyId, {
    skip: !mayReadQueue(role, filters.companyId) || !anyBusy,
    pollingInterval: polling ? POLL_MS : 0,
    skipPollingIfUnfocused: true,
  });
  const queuePositions = useMemo(
    () => new Map((companyQueue.data?.items ?? []).map((entry) => [entry.fileId, entry.position])),
    [companyQueue.data],
  );
  const totalPages = Math.max(1, data?.totalPages ?? 1);
  useEffect(() => {
    if (data && page > totalPages) setPage(totalPages);
  }, [data, page, totalPages]);

  // Another filter is another list: back to its first page, nothing chosen in it.
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [seenFilters, setSeenFilters] = useState(filterKey);
  if (seenFilters !== filterKey) {
    setSeenFilters(filterKey);
    setPage(1);
    setSelected(new Set());
  }
  const applyFilters = (next: LibraryFilters) => setParams(paramsWithFilters(params, next));

  const { toasts, show, dismiss } = useToasts(TOAST_MS);
  // A HOST_ADMIN belongs to no company: the server needs to be told whose recording this is.
  const [uploadCompany, setUploadCompany] = useState('');
  const [batch, setBatch] = useState<BatchFields>({});
  const uploaded = useRef(0);
  const onSettled = useCallback(
    (item: QueueItem) => {
      if (item.status === 'done') {
        uploaded.current += 1;
        setPage(1);
        dispatch(libraryApi.util.invalidateTags(['Files', 'Tags']));
      } else if (item.status === 'failed') {
        show({
          kind: 'error',
          title: t('transcripts.uploadError'),
          detail: item.message ? `${item.file.name}: ${item.message}` : item.file.name,
        });
      }
    },
    [dispatch, show, t],
  );
  const { queue, items: uploads } = useUploadQueue(onSettled);
  const active = uploads.some((item) => item.status === 'queued' || item.status === 'uploading');
  // One success toast per batch, when its last file has ended.
  useEffect(() => {
    if (active || uploaded.current === 0) return;
    const count = uploaded.current;
    uploaded.current = 0;
    show({
      kind: 'success',
      title: count === 1 ? t('transcripts.uploadSuccess') : t('library.upload.uploadedMany', { count }),
    });
  }, [active, show, t]);
  const uploadDisabled = isHost && !uploadCompany;
  const onFiles = (files: File[], skipped: number) => {
    if (skipped) show({ kind: 'error', title: t('library.upload.skipped', { count: skipped }) });
    if (files.length) queue.add(files, { ...batch, ...(isHost ? { companyId: uploadCompany } : {}) });
  };

  const [confirming, setConfirming] = useState<FileItem | null>(null);
  const [deleteFile, deleting] = useDeleteFileMutation();
  const [transcribe] = useTranscribeMutation();

  const onDelete = async () => {
    if (!confirming) return;
    try {
      await deleteFile(confirming._id).unwrap();
      setSelected((current) => new Set([...current].filter((id) => id !== confirming._id)));
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

  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const pageSelected = items.length > 0 && items.every((item) => selected.has(item._id));
  const somePageSelected = items.some((item) => selected.has(item._id));
  const togglePage = (on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const item of items) {
        if (on) next.add(item._id);
        else next.delete(item._id);
      }
      return next;
    });

  const th = 'px-3 py-3 text-left text-xs font-semibold tracking-wide text-gray-600 uppercase dark:text-gray-400';
  const td = 'px-3 py-3 align-top text-sm text-gray-800 dark:text-gray-200';
  const columnCount = (isHost ? 8 : 7) + 1;

  return (
    <section aria-labelledby="page-heading">
      <ToastRegion toasts={toasts} onDismiss={dismiss} closeLabel={t('transcripts.close')} />
      <div className="mb-2 flex flex-wrap items-start justify-between gap-4">
        <PageHeading>{t('pages.transcripts')}</PageHeading>
        <div className="flex w-full flex-wrap items-end justify-end gap-2 sm:w-auto">
          {isHost && (
            <label className="flex w-full flex-col gap-1 text-xs font-medium text-gray-600 sm:w-56 dark:text-gray-400">
              {t('transcriptList.uploadCompany')}
              <select
                className={fieldInputClass}
                value={uploadCompany}
                onChange={(event) => setUploadCompany(event.target.value)}
                aria-describedby="upload-company-hint"
                data-testid="upload-company"
              >
                <option value="">{t('transcriptList.chooseCompany')}</option>
                {(companies.data ?? []).map((company) => (
                  <option key={company._id} value={company._id}>
                    {company.name}
                  </option>
                ))}
              </select>
            </label>
          )}
          <BulkUploadControls disabled={uploadDisabled} fields={batch} onFields={setBatch} onFiles={onFiles} />
          <SpeakerSeparationNote />
          {isHost && !uploadCompany && (
            <p id="upload-company-hint" className="w-full text-xs text-gray-600 sm:text-right dark:text-gray-400">
              {t('transcriptList.uploadCompanyHint')}
            </p>
          )}
        </div>
      </div>
      <p className="mb-4 text-xs text-gray-600 dark:text-gray-400">{t('library.upload.dropHint')}</p>
      <LibraryFiltersForm
        value={filters}
        tags={tags.data ?? []}
        clients={mayReadClients(role) ? (clients.data ?? []) : null}
        companies={isHost ? (companies.data ?? []) : null}
        onChange={applyFilters}
      />

      <UploadTray queue={queue} items={uploads} />

      {companyQueue.data && anyBusy ? <QueueSummary queue={companyQueue.data} /> : null}

      <ExportSelected
        selected={[...selected]}
        onClear={() => setSelected(new Set())}
        onError={(detail) => show({ kind: 'error', title: t('library.export.failed'), detail })}
      />

      <DropZone disabled={uploadDisabled} onFiles={onFiles}>
        <div className="rounded-2xl border border-gray-200 bg-white dark:border-gray-800 dark:bg-gray-900">
          <ScrollHint className="border-b border-gray-200 px-4 py-2 dark:border-gray-800" />
          {/* Focusable so a keyboard can scroll it sideways below 768 px; relative keeps the page from widening. */}
          <div className="relative overflow-x-auto" tabIndex={0} role="region" aria-label={t('pages.transcripts')}>
            {isLoading ? (
              <PageSpinner label={t('common.loading')} />
            ) : isError ? (
              <p role="alert" className="p-6 text-sm text-red-700 dark:text-red-300">
                {t('transcripts.listError')}
              </p>
            ) : (
              <table
                className="w-full min-w-[760px] divide-y divide-gray-200 dark:divide-gray-800"
                data-testid="files-table"
                aria-busy={isFetching}
              >
                <thead className="bg-gray-50 dark:bg-gray-800/50">
                  <tr>
                    <th scope="col" className="w-10 px-3 py-3">
                      <input
                        type="checkbox"
                        className="size-4 accent-brand-600"
                        checked={pageSelected}
                        ref={(box) => {
                          if (box) box.indeterminate = somePageSelected && !pageSelected;
                        }}
                        disabled={items.length === 0}
                        onChange={(event) => togglePage(event.target.checked)}
                        aria-label={t('library.select.page')}
                        data-testid="select-page"
                      />
                    </th>
                    <th scope="col" className={th}>
                      {t('transcripts.columns.name')}
                    </th>
                    <th scope="col" className={th}>
                      {t('transcripts.columns.fileStatus')}
                    </th>
                    <th scope="col" className={th}>
                      {t('transcripts.columns.transcriptionStatus')}
                    </th>
                    <th scope="col" className={th}>
                      {t('transcripts.columns.size')}
                    </th>
                    <th scope="col" className={th}>
                      {t('transcripts.columns.uploadDate')}
                    </th>
                    <th scope="col" className={th}>
                      {t('transcripts.columns.actions')}
                    </th>
                    {/* Translated like every other label, though the product first showed it in English only. */}
                    <th scope="col" className={th}>
                      {t('transcriptList.columns.client')}
                    </th>
                    {isHost && (
                      <th scope="col" className={th}>
                        {t('transcriptList.columns.company')}
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody className="divide-y divide-gray-100 dark:divide-gray-800">
                  {items.length === 0 ? (
                    <tr>
                      <td
                        colSpan={columnCount}
                        className="px-4 py-10 text-center text-sm text-gray-500 dark:text-gray-400"
                        data-testid="files-empty"
                      >
                        {/* On a phone the table is wider than the screen: the message keeps to the visible part. */}
                        <span className="sticky left-0 block w-[calc(100vw-5rem)] sm:static sm:w-auto">
                          {t('transcripts.noFiles')}
                        </span>
                      </td>
                    </tr>
                  ) : (
                    items.map((item) => (
                      <tr
                        key={item._id}
                        data-testid="file-row"
                        data-file-id={item._id}
                        className={selected.has(item._id) ? 'bg-brand-50/60 dark:bg-brand-900/20' : undefined}
                      >
                        <td className="px-3 py-3 align-top">
                          <input
                            type="checkbox"
                            className="size-4 accent-brand-600"
                            checked={selected.has(item._id)}
                            onChange={(event) => toggle(item._id, event.target.checked)}
                            aria-label={t('library.select.one', { name: item.originalName })}
                            data-testid="select-file"
                          />
                        </td>
                        <td className={`${td} max-w-52`}>
                          <p className="break-words font-medium" data-testid="file-name">
                            {item.originalName}
                          </p>
                          {item.hold ? <HoldBadge reason={item.holdReason} at={item.holdAt} /> : null}
                          {item.speakers.length > 0 && (
                            <p className="mt-0.5 text-xs text-gray-600 dark:text-gray-400" data-testid="file-speakers">
                              {item.speakers.join(', ')}
                            </p>
                          )}
                          <div className="mt-1.5">
                            <TagEditor
                              fileId={item._id}
                              fileName={item.originalName}
                              tags={item.tags}
                              suggestions={tagNames}
                              onTagClick={(tag) => applyFilters({ ...filters, tag })}
                              onError={(detail) => show({ kind: 'error', title: t('library.tags.saveFailed'), detail })}
                              onRedacted={(notice) => show({ kind: 'success', title: notice })}
                            />
                          </div>
                        </td>
                        <td className={td}>
                          <StatusBadge status={item.status} />
                        </td>
                        <td className={td}>
                          <StatusBadge status={item.transcriptionStatus} testId="transcription-status" />
                          {item.transcriptionStatus === 'pending' && queuePositions.has(item._id) ? (
                            <QueuePosition
                              position={queuePositions.get(item._id)!}
                              pending={companyQueue.data!.pending}
                            />
                          ) : null}
                          {item.transcriptionStatus === 'failed' ? (
                            <div className="mt-2 max-w-xs">
                              {item.transcriptionError ? (
                                <p className="text-xs text-red-700 dark:text-red-300" data-testid="failure-reason">
                                  {item.transcriptionError}
                                </p>
                              ) : null}
                              <button
                                type="button"
                                onClick={() => void onRetry(item)}
                                className="mt-1 text-xs font-medium text-brand-700 underline hover:text-brand-900 dark:text-brand-300"
                              >
                                {t('transcripts.retry')}
                              </button>
                            </div>
                          ) : null}
                        </td>
                        <td className={`${td} whitespace-nowrap tabular-nums`}>{formatSize(item.size)}</td>
                        <td className={`${td} whitespace-nowrap`}>{formatDate(item.uploadDate, i18n.language)}</td>
                        <td className={`${td} whitespace-nowrap`}>
                          <div className="flex items-center gap-2">
                            <Link
                              to={`/transcripts/${item._id}`}
                              className="rounded-lg bg-brand-50 px-3 py-1.5 text-xs font-medium text-brand-800 hover:bg-brand-100 dark:bg-brand-900/40 dark:text-brand-100"
                              data-testid="view-transcript"
                            >
                              {t('transcripts.view')}
                            </Link>
                            <button
                              type="button"
                              onClick={() => setConfirming(item)}
                              aria-label={`${t('transcripts.delete')}: ${item.originalName}`}
                              className="rounded-lg px-3 py-1.5 text-xs font-medium text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950"
                              data-testid="delete-file"
                            >
                              {t('transcripts.delete')}
                            </button>
                          </div>
                        </td>
                        <td className={`${td} whitespace-nowrap`} data-testid="file-client">
                          {item.clientId && clientNames.has(item.clientId) ? (
                            <Link
                              to={`/client/${item.clientId}`}
                              className="text-brand-700 hover:underline dark:text-brand-300"
                            >
                              {clientNames.get(item.clientId)}
                            </Link>
                          ) : (
                            <span className="text-gray-500" title={item.clientId ?? undefined}>
                              {item.clientId ? item.clientId.slice(0, 8) : '—'}
                            </span>
                          )}
                        </td>
                        {isHost && (
                          <td className={`${td} whitespace-nowrap`} data-testid="file-company">
                            {companyNames.get(item.companyId) ?? item.companyId.slice(0, 8)}
                          </td>
                        )}
                      </tr>
                    ))
                  )}
                </tbody>
              </table>
            )}
          </div>
        </div>
      </DropZone>

      <div className="mt-4">
        <Pager
          page={page}
          totalPages={totalPages}
          onPage={setPage}
          info={t('transcripts.pageOf', { page, total: totalPages })}
          previous={t('transcripts.previous')}
          next={t('transcripts.next')}
        />
      </div>

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
