// Bulk upload on the recordings list: choose files or a whole folder, or drop them on the list;
// the batch's language and speaker count go with every file. Each file is an entry of the tray
// with its own progress bar, Cancel, and its outcome; failures keep the server's message and a
// Retry. At most three files are sent at a time (upload-queue.ts).
import {
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ChangeEvent,
  type DragEvent,
  type ReactElement,
  type ReactNode,
} from 'react';
import { fieldInputClass } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { LANGUAGES } from '../../i18n/languages';
import { useSpeechReadinessQuery } from '../../entities/platform';
import { session } from '../../lib/api';
import { useAppDispatch } from '../../lib/store';
import { uploadFile } from '../../lib/upload';
import { AUDIO_ACCEPT, audioOnly, droppedFiles } from './dropped-files';
import { catalogue } from './library-i18n';
import { queueSummary, UploadQueue, type BatchFields, type QueueItem } from './upload-queue';

export const SPEAKER_CHOICES = Array.from({ length: 10 }, (_, index) => String(index + 1));

/** The page's queue; `onSettled` hears of each file once its upload has ended. */
export function useUploadQueue(onSettled: (item: QueueItem) => void): {
  queue: UploadQueue;
  items: readonly QueueItem[];
} {
  const dispatch = useAppDispatch();
  const settled = useRef(onSettled);
  useEffect(() => {
    settled.current = onSettled;
  });
  const [queue] = useState(
    () =>
      new UploadQueue(
        (item, onProgress) => {
          const { companyId, clientId, language, speakers } = item.fields;
          const fields: Record<string, string> = {};
          if (language) fields.language = language;
          if (speakers) fields.speakers = speakers;
          return uploadFile(item.file, { session, dispatch, companyId, clientId, fields, onProgress });
        },
        (item) => settled.current(item),
      ),
  );
  // Leaving the page stops what is still being sent (nothing would show its outcome).
  useEffect(() => () => queue.cancelAll(), [queue]);
  const items = useSyncExternalStore(queue.subscribe, queue.snapshot);
  return { queue, items };
}

const smallButton =
  'rounded-lg border border-gray-300 px-3 py-1.5 text-xs font-medium text-gray-700 hover:bg-gray-50 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800';

const ONE_SPEAKER_NOTE = 'upload-one-speaker';

/**
 * Said before an upload, not discovered after it: without the speaker models every recording comes
 * back with one speaker, whatever the Speakers choice. Nothing while the answer is unknown.
 */
export function SpeakerSeparationNote(): ReactElement | null {
  const { t } = useFeatureTranslation(catalogue);
  const { data } = useSpeechReadinessQuery(undefined, { refetchOnMountOrArgChange: true });
  if (data?.speakerSeparation !== false) return null;
  return (
    <p
      id={ONE_SPEAKER_NOTE}
      role="note"
      className="w-full text-xs text-amber-800 sm:text-right dark:text-amber-200"
      data-testid="upload-one-speaker"
    >
      {t('library.upload.oneSpeaker')}
    </p>
  );
}

/** Choose files, choose a folder, and the batch's language and speakers. */
export function BulkUploadControls({
  disabled,
  fields,
  onFields,
  onFiles,
}: {
  disabled: boolean;
  fields: BatchFields;
  onFields: (fields: BatchFields) => void;
  onFiles: (files: File[], skipped: number) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const onChoose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = Array.from(event.target.files ?? []);
    event.target.value = '';
    const { files, skipped } = audioOnly(chosen);
    if (files.length || skipped) onFiles(files, skipped);
  };
  const label = 'flex flex-col gap-1 text-xs font-medium text-gray-600 dark:text-gray-400';
  return (
    <div className="grid w-full grid-cols-2 items-end gap-2 sm:flex sm:w-auto sm:flex-wrap sm:justify-end">
      <label className={`${label} sm:w-40`}>
        {t('library.upload.language')}
        <select
          className={fieldInputClass}
          value={fields.language ?? ''}
          onChange={(event) => onFields({ ...fields, language: event.target.value || undefined })}
          data-testid="upload-language"
        >
          <option value="">{t('library.upload.companyDefault')}</option>
          <option value="auto">{t('library.upload.detect')}</option>
          {LANGUAGES.map((language) => (
            <option key={language.code} value={language.code} lang={language.code}>
              {language.label}
            </option>
          ))}
        </select>
      </label>
      <label className={`${label} sm:w-28`}>
        {t('library.upload.speakers')}
        <select
          className={fieldInputClass}
          value={fields.speakers ?? ''}
          onChange={(event) => onFields({ ...fields, speakers: event.target.value || undefined })}
          data-testid="upload-speakers"
        >
          <option value="">{t('library.upload.speakersAuto')}</option>
          {SPEAKER_CHOICES.map((count) => (
            <option key={count} value={count}>
              {count}
            </option>
          ))}
        </select>
      </label>
      <input
        ref={filesInput}
        type="file"
        multiple
        accept={AUDIO_ACCEPT}
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="upload-input"
        onChange={onChoose}
        disabled={disabled}
      />
      {/* webkitdirectory: every browser we support picks a whole folder with it (React lacks its type). */}
      <input
        ref={folderInput}
        type="file"
        multiple
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="upload-folder-input"
        onChange={onChoose}
        disabled={disabled}
        {...{ webkitdirectory: '' }}
      />
      <button
        type="button"
        onClick={() => folderInput.current?.click()}
        disabled={disabled}
        className="rounded-lg border border-gray-300 px-4 py-2 text-sm font-medium text-gray-700 hover:bg-gray-50 disabled:opacity-60 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800"
      >
        {t('library.upload.chooseFolder')}
      </button>
      <button
        type="button"
        onClick={() => filesInput.current?.click()}
        disabled={disabled}
        className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60"
      >
        {t('library.upload.chooseFiles')}
      </button>
    </div>
  );
}

/** Recordings dropped anywhere on `children` join the queue; an outline says where to drop. */
export function DropZone({
  disabled,
  onFiles,
  children,
}: {
  disabled: boolean;
  onFiles: (files: File[], skipped: number) => void;
  children: ReactNode;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [over, setOver] = useState(false);
  const hasFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');
  const onDragOver = (event: DragEvent) => {
    if (disabled || !hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setOver(true);
  };
  const onDragLeave = (event: DragEvent) => {
    // Leaving for a child is not leaving the zone.
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
  };
  const onDrop = (event: DragEvent) => {
    if (disabled || !hasFiles(event)) return;
    event.preventDefault();
    setOver(false);
    void droppedFiles(event.dataTransfer).then((all) => {
      const { files, skipped } = audioOnly(all);
      if (files.length || skipped) onFiles(files, skipped);
    });
  };
  return (
    <div
      className="relative"
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
      data-testid="drop-zone"
      data-dragging={over || undefined}
    >
      {children}
      {over && (
        <div className="pointer-events-none absolute inset-0 z-20 flex items-center justify-center rounded-2xl border-2 border-dashed border-brand-500 bg-brand-50/80 text-sm font-medium text-brand-800 dark:bg-gray-900/80 dark:text-brand-200">
          {t('library.upload.dropHere')}
        </div>
      )}
    </div>
  );
}

const STATUS_CLASS: Record<QueueItem['status'], string> = {
  queued: 'text-gray-600 dark:text-gray-400',
  uploading: 'text-brand-700 dark:text-brand-300',
  done: 'text-green-700 dark:text-green-300',
  failed: 'text-red-700 dark:text-red-300',
  cancelled: 'text-gray-600 dark:text-gray-400',
};

/** The files of the current uploads, each with its progress, outcome and buttons. */
export function UploadTray({ queue, items }: { queue: UploadQueue; items: readonly QueueItem[] }): ReactElement | null {
  const { t } = useFeatureTranslation(catalogue);
  if (items.length === 0) return null;
  const counts = queueSummary(items);
  const active = counts.queued + counts.uploading;
  return (
    <section
      aria-label={t('library.upload.tray')}
      className="mb-4 rounded-2xl border border-gray-200 bg-white dark:border-gray-800 dark:bg-gray-900"
      data-testid="upload-tray"
    >
      <div className="flex flex-wrap items-center gap-2 border-b border-gray-200 px-4 py-2 dark:border-gray-800">
        <p className="mr-auto text-sm text-gray-700 dark:text-gray-300" aria-live="polite" data-testid="upload-summary">
          {t('library.upload.summary', { done: counts.done, total: items.length })}
          {counts.failed > 0 && (
            <span className="ml-2 text-red-700 dark:text-red-300">
              {t('library.upload.failedCount', { count: counts.failed })}
            </span>
          )}
        </p>
        {counts.failed > 0 && (
          <button type="button" className={smallButton} onClick={() => queue.retryFailed()}>
            {t('library.upload.retryFailed')}
          </button>
        )}
        {active > 0 && (
          <button type="button" className={smallButton} onClick={() => queue.cancelAll()}>
            {t('library.upload.cancelAll')}
          </button>
        )}
        {items.length > active && (
          <button type="button" className={smallButton} onClick={() => queue.dismiss()} data-testid="upload-clear">
            {t('library.upload.clearFinished')}
          </button>
        )}
      </div>
      <ul className="max-h-72 divide-y divide-gray-100 overflow-y-auto dark:divide-gray-800">
        {items.map((item) => {
          const percent = Math.round(item.progress * 100);
          const status = t(`library.upload.status.${item.status}`);
          return (
            <li
              key={item.id}
              className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2"
              data-testid="upload-item"
              data-status={item.status}
              data-name={item.file.name}
            >
              <div className="min-w-0 flex-1 basis-48">
                <p className="truncate text-sm text-gray-800 dark:text-gray-200" title={item.file.name}>
                  {item.file.name}
                </p>
                {item.status === 'uploading' || item.status === 'queued' ? (
                  <progress
                    className="mt-1 h-1.5 w-full accent-brand-600"
                    max={100}
                    value={percent}
                    aria-label={t('library.upload.progressOf', { name: item.file.name })}
                  />
                ) : null}
                {item.status === 'failed' && (
                  <p className="mt-0.5 text-xs text-red-700 dark:text-red-300" data-testid="upload-error">
                    {item.message ?? t('library.upload.networkError')}
                  </p>
                )}
              </div>
              <span className={`w-24 text-right text-xs font-medium tabular-nums ${STATUS_CLASS[item.status]}`}>
                {item.status === 'uploading' ? `${percent}%` : status}
              </span>
              <div className="flex gap-1">
                {(item.status === 'queued' || item.status === 'uploading') && (
                  <button
                    type="button"
                    className={smallButton}
                    onClick={() => queue.cancel(item.id)}
                    aria-label={`${t('transcripts.cancelUpload')}: ${item.file.name}`}
                  >
                    {t('library.upload.cancel')}
                  </button>
                )}
                {(item.status === 'failed' || item.status === 'cancelled') && (
                  <button
                    type="button"
                    className={smallButton}
                    onClick={() => queue.retry(item.id)}
                    aria-label={`${t('library.upload.retry')}: ${item.file.name}`}
                  >
                    {t('library.upload.retry')}
                  </button>
                )}
                {item.status !== 'queued' && item.status !== 'uploading' && (
                  <button
                    type="button"
                    className={smallButton}
                    onClick={() => queue.dismiss(item.id)}
                    aria-label={`${t('library.upload.dismiss')}: ${item.file.name}`}
                  >
                    ×
                  </button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
