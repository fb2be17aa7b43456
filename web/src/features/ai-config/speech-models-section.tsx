import { useEffect, useRef, useState, type ReactElement } from 'react';
import type { SpeechModelDto } from '@earshot/contracts';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { buttonClass } from '../../components/form-parts';
import { PageSpinner } from '../../components/spinner';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { formatSize } from '../../lib/format-size';
import { useAppDispatch } from '../../lib/store';
import {
  useCancelSpeechModelMutation,
  useDeleteSpeechModelMutation,
  useDownloadSpeechModelMutation,
  useMakeSpeechModelDefaultMutation,
  speechModelsApi,
  useSpeechModelsQuery,
} from './speech-models-api';
import { catalogue as speechModelsCatalogue } from './speech-models-i18n';
import { td, th } from './table-parts';

const STATUS_TONE: Record<SpeechModelDto['status'], string> = {
  absent: 'bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-300',
  downloading: 'bg-blue-100 text-blue-800 dark:bg-blue-900/40 dark:text-blue-200',
  ready: 'bg-green-100 text-green-800 dark:bg-green-900/40 dark:text-green-200',
  failed: 'bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-200',
};

/** AI Configuration → Speech models: download, cancel, delete and choose the machine's own models. */
export function SpeechModelsSection(): ReactElement {
  const { t } = useFeatureTranslation(speechModelsCatalogue);
  const [polling, setPolling] = useState(false);
  // While something downloads, the list is asked again every second for the progress bars.
  const { data, isLoading, isError } = useSpeechModelsQuery(undefined, { pollingInterval: polling ? 1000 : 0 });
  const downloading = (data ?? []).some((m) => m.status === 'downloading');
  if (downloading !== polling) setPolling(downloading);
  // A download ends in the background: what the first-run checklist reads is asked again then.
  const dispatch = useAppDispatch();
  const wasPolling = useRef(false);
  useEffect(() => {
    if (wasPolling.current && !polling) dispatch(speechModelsApi.util.invalidateTags(['SpeechModels']));
    wasPolling.current = polling;
  }, [polling, dispatch]);
  const [download] = useDownloadSpeechModelMutation();
  const [cancel] = useCancelSpeechModelMutation();
  const [remove, removing] = useDeleteSpeechModelMutation();
  const [makeDefault] = useMakeSpeechModelDefaultMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<SpeechModelDto | null>(null);

  const act = async (run: () => { unwrap: () => Promise<unknown> }) => {
    try {
      await run().unwrap();
      setFailure(null);
    } catch (error) {
      setFailure(errorMessage(error) ?? t('speechModels.failed'));
    }
  };
  const languages = (m: SpeechModelDto) =>
    t(
      m.kind === 'diarization'
        ? 'speechModels.speakers'
        : m.languages === 'en'
          ? 'speechModels.english'
          : 'speechModels.multilingual',
    );

  return (
    <section
      id="speech-models"
      className="mb-8 scroll-mt-4"
      data-testid="speech-models-section"
      aria-label={t('speechModels.title')}
    >
      <h2 className="mb-1 text-lg font-semibold text-gray-900 dark:text-white">{t('speechModels.title')}</h2>
      <p className="mb-3 max-w-3xl text-sm text-gray-600 dark:text-gray-400">{t('speechModels.intro')}</p>
      {failure ? (
        <p role="alert" className="mb-3 text-sm text-red-700 dark:text-red-300" data-testid="speech-models-error">
          {failure}
        </p>
      ) : null}
      <div className="overflow-x-auto rounded-2xl border border-gray-200 bg-white dark:border-gray-800 dark:bg-gray-900">
        {isLoading ? (
          <PageSpinner label={t('speechModels.loading')} />
        ) : isError ? (
          <p role="alert" className="p-4 text-sm text-red-700 dark:text-red-300">
            {t('speechModels.listError')}
          </p>
        ) : (
          <table className="min-w-full divide-y divide-gray-200 dark:divide-gray-800" data-testid="speech-models-table">
            <thead className="bg-gray-50 dark:bg-gray-800/50">
              <tr>
                <th scope="col" className={th}>
                  {t('speechModels.name')}
                </th>
                <th scope="col" className={th}>
                  {t('speechModels.languages')}
                </th>
                <th scope="col" className={th}>
                  {t('speechModels.size')}
                </th>
                <th scope="col" className={th}>
                  {t('speechModels.status')}
                </th>
                <th scope="col" className={th}>
                  {t('speechModels.actions')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100 dark:divide-gray-800">
              {(data ?? []).map((m) => {
                const percent = Math.floor(m.progress * 100);
                const partial = m.status !== 'downloading' && m.status !== 'ready' && m.progress > 0;
                return (
                  <tr key={m.name} data-testid="speech-model-row" data-model={m.name} data-status={m.status}>
                    <td className={`${td} font-medium whitespace-nowrap`}>
                      {m.name}
                      {m.isDefault ? (
                        <span
                          className="ml-2 inline-flex rounded-full bg-brand-100 px-2 py-0.5 text-xs font-medium text-brand-800 dark:bg-brand-900/40 dark:text-brand-200"
                          data-testid="speech-model-default"
                        >
                          {t('speechModels.isDefault')}
                        </span>
                      ) : null}
                    </td>
                    <td className={`${td} whitespace-nowrap`}>{languages(m)}</td>
                    <td className={`${td} whitespace-nowrap tabular-nums`}>{formatSize(m.sizeBytes)}</td>
                    <td className={`${td} min-w-44`}>
                      <span
                        className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_TONE[m.status]}`}
                        data-testid="speech-model-status"
                      >
                        {t(`speechModels.statuses.${m.status}`)}
                      </span>
                      {m.status === 'downloading' ? (
                        <div className="mt-2 flex items-center gap-2">
                          <div
                            role="progressbar"
                            aria-label={t('speechModels.progress', { name: m.name })}
                            aria-valuemin={0}
                            aria-valuemax={100}
                            aria-valuenow={percent}
                            className="h-2 w-32 overflow-hidden rounded-full bg-gray-200 dark:bg-gray-700"
                            data-testid="speech-model-progress"
                          >
                            <div
                              className="h-full rounded-full bg-brand-600 transition-[width] dark:bg-brand-400"
                              style={{ width: `${percent}%` }}
                            />
                          </div>
                          <span className="text-xs tabular-nums text-gray-600 dark:text-gray-400">{percent} %</span>
                        </div>
                      ) : null}
                      {partial ? (
                        <p className="mt-1 text-xs text-gray-600 dark:text-gray-400">
                          {t('speechModels.partial', { percent })}
                        </p>
                      ) : null}
                      {m.error ? (
                        <p
                          className="mt-1 max-w-sm text-xs break-words text-red-700 dark:text-red-300"
                          data-testid="speech-model-error"
                        >
                          {m.error}
                        </p>
                      ) : null}
                    </td>
                    <td className={td}>
                      <div className="flex flex-wrap items-start gap-1">
                        {m.status === 'absent' || m.status === 'failed' ? (
                          <button
                            type="button"
                            className={buttonClass.row}
                            onClick={() => void act(() => download(m.name))}
                          >
                            {t(partial ? 'speechModels.resume' : 'speechModels.download')}
                          </button>
                        ) : null}
                        {m.status === 'downloading' ? (
                          <button
                            type="button"
                            className={buttonClass.row}
                            onClick={() => void act(() => cancel(m.name))}
                          >
                            {t('speechModels.cancel')}
                          </button>
                        ) : null}
                        {m.status === 'ready' && m.kind === 'whisper' && !m.isDefault ? (
                          <button
                            type="button"
                            className={buttonClass.row}
                            onClick={() => void act(() => makeDefault(m.name))}
                          >
                            {t('speechModels.makeDefault')}
                          </button>
                        ) : null}
                        {m.status === 'ready' || partial || m.status === 'failed' ? (
                          <button type="button" className={buttonClass.danger} onClick={() => setDeleting(m)}>
                            {t('speechModels.remove')}
                          </button>
                        ) : null}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </div>
      <ConfirmDialog
        open={deleting !== null}
        message={t('speechModels.deleteConfirm', { name: deleting?.name ?? '' })}
        confirmLabel={t('speechModels.remove')}
        cancelLabel={t('speechModels.cancel')}
        busy={removing.isLoading}
        onConfirm={() => void act(() => remove(deleting!.name)).then(() => setDeleting(null))}
        onCancel={() => setDeleting(null)}
      />
    </section>
  );
}
