import { useEffect, useMemo, useState, type ReactElement } from 'react';
import { Link, useParams } from 'react-router-dom';
import { PageSpinner } from '../../components/spinner';
import { useFeatureTranslation } from '../../i18n/feature';
import {
  viewerCatalogue,
  analysisCatalogue as catalogue,
  isActive,
  RUNS_POLL_MS,
  type AnalysisRun,
  AskAboutRecording,
  assignSpeakerColors,
  useTranscriptQuery,
} from '../../entities/transcripts';
import { useChatModelsQuery } from '../../entities/platform';
import { errorMessage } from '../../lib/api';
import { roleOf } from '../../lib/stored-user';
import { useAppSelector } from '../../lib/store';
import {
  useAnalysisPatternsQuery,
  useAnalysisRunsQuery,
  useCallMetricsQuery,
  useDeleteAnalysisMutation,
  useRunnablePromptsQuery,
  useStartAnalysisMutation,
  type RunTarget,
} from './analysis-api';
import { CallMetricsPanel } from './call-metrics';
import { ManagePatterns } from './manage-patterns';
import { RunCard } from './run-card';
import { NoModelNotice, RunPicker, StartError } from './run-picker';

const NO_RUNS: AnalysisRun[] = [];
const link =
  'inline-flex items-center gap-1 rounded-lg border border-gray-300 px-3 py-1.5 text-sm text-gray-700 hover:bg-gray-50 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800';

/** /transcripts/{fileId}/analysis: call analytics, then prompts run on the transcript as scorecards. */
export default function TranscriptAnalysisPage(): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue, viewerCatalogue);
  const { id = '' } = useParams();
  const role = useAppSelector((state) => roleOf(state.session.user));
  const transcript = useTranscriptQuery(id);
  const ready = transcript.data?.status === 'completed';
  const metrics = useCallMetricsQuery(id, { skip: !ready });
  const [polling, setPolling] = useState(false);
  const runs = useAnalysisRunsQuery(id, { skip: !ready, pollingInterval: polling ? RUNS_POLL_MS : 0 });
  const list = runs.data ?? NO_RUNS;
  // Poll only while a run is pending or running.
  useEffect(() => setPolling(list.some(isActive)), [list]);
  const prompts = useRunnablePromptsQuery();
  // Patterns are for administrators (the server says 403 to others).
  const administrator = role === 'HOST_ADMIN' || role === 'ADMIN';
  const patterns = useAnalysisPatternsQuery(undefined, { skip: !administrator });
  // Fresh on every visit: an administrator may have connected a model meanwhile.
  const chatModels = useChatModelsQuery(undefined, { skip: !ready, refetchOnMountOrArgChange: true });
  const noModel = chatModels.data?.builtIn === true;
  const [start, starting] = useStartAnalysisMutation();
  const [remove, removing] = useDeleteAnalysisMutation();
  const [startError, setStartError] = useState<unknown>(null);

  const promptsById = useMemo(() => new Map((prompts.data?.items ?? []).map((p) => [p._id, p])), [prompts.data]);
  const colors = useMemo(() => assignSpeakerColors(transcript.data?.metadata.speakerSegments ?? []), [transcript.data]);

  const run = async (target: RunTarget) => {
    setStartError(null);
    try {
      await start(target).unwrap();
    } catch (error) {
      setStartError(error);
    }
  };

  if (transcript.isLoading) return <PageSpinner label={t('common.loading')} />;
  const name = transcript.data?.file.originalName ?? t('pages.transcriptAnalysis');
  return (
    <section aria-labelledby="page-heading">
      <div className="mb-6 flex flex-wrap items-center gap-3">
        <Link to={`/transcripts/${encodeURIComponent(id)}`} className={link} data-testid="back-to-viewer">
          <span aria-hidden="true">←</span> {t('page.viewer')}
        </Link>
        <div className="mr-auto min-w-0">
          <h1 id="page-heading" className="truncate text-xl font-semibold text-gray-900 dark:text-white">
            {t('page.title', { name })}
          </h1>
        </div>
        <AskAboutRecording fileId={id} />
      </div>
      {transcript.isError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {t('viewer.fetchTranscript')}
        </p>
      ) : null}
      {transcript.data && !ready ? (
        <p role="status" className="text-sm text-gray-600 dark:text-gray-300">
          {t('page.notReady')}
        </p>
      ) : null}
      {ready ? (
        <>
          {metrics.data ? <CallMetricsPanel metrics={metrics.data} colors={colors} /> : null}
          {metrics.error ? (
            <p role="alert" className="mb-6 text-sm text-red-700 dark:text-red-300">
              {errorMessage(metrics.error) ?? t('metrics.failed')}
            </p>
          ) : null}
          <section aria-labelledby="analysis-runs" className="flex flex-col gap-4">
            <h2 id="analysis-runs" className="text-lg font-semibold text-gray-900 dark:text-white">
              {t('runs.title')}
            </h2>
            <div className="rounded-2xl border border-gray-200 bg-white p-4 dark:border-gray-800 dark:bg-gray-900">
              <RunPicker
                fileId={id}
                prompts={prompts.data?.items ?? []}
                patterns={patterns.data?.items ?? []}
                busy={starting.isLoading}
                noModel={noModel}
                onRun={(target) => void run(target)}
              />
              {noModel ? <NoModelNotice host={role === 'HOST_ADMIN'} /> : null}
              {startError && !noModel ? <StartError error={startError} /> : null}
              {administrator ? (
                <ManagePatterns host={role === 'HOST_ADMIN'} prompts={prompts.data?.items ?? []} />
              ) : null}
            </div>
            {runs.error ? (
              <p role="alert" className="text-sm text-red-700 dark:text-red-300">
                {errorMessage(runs.error) ?? t('runs.loadFailed')}
              </p>
            ) : null}
            {runs.data && list.length === 0 ? (
              <p className="text-sm text-gray-600 dark:text-gray-400" data-testid="runs-empty">
                {t('runs.empty')}
              </p>
            ) : null}
            {list.map((item) => {
              const prompt = promptsById.get(item.promptId);
              return (
                <RunCard
                  key={item._id}
                  run={item}
                  promptName={prompt?.name ?? t('runs.unknownPrompt')}
                  format={prompt?.expectedFormat ?? []}
                  language={i18n.language}
                  busy={starting.isLoading || removing.isLoading}
                  noModel={noModel}
                  onRerun={() => void run({ fileId: id, promptId: item.promptId })}
                  onDelete={() => void remove({ fileId: id, runId: item._id })}
                />
              );
            })}
          </section>
        </>
      ) : null}
    </section>
  );
}
