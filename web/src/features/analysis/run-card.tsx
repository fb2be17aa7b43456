import { useState, type ReactElement } from 'react';
import { useFeatureTranslation } from '../../i18n/feature';
import {
  analysisCatalogue as catalogue,
  isActive,
  runJson,
  runMarkdown,
  scorecard,
  type AnalysisRun,
  type FormatField,
  ActionItemsPanel,
} from '../../entities/transcripts';
import { Scorecard } from './scorecard';

const small =
  'rounded-lg border border-gray-300 px-2.5 py-1 text-xs font-medium text-gray-700 hover:bg-gray-50 disabled:opacity-50 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800';

function saveFile(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

function RunStatusLine({ run }: { run: AnalysisRun }): ReactElement | null {
  const { t } = useFeatureTranslation(catalogue);
  if (isActive(run)) {
    const progress = run.progress && run.progress.total > 1 ? run.progress : null;
    return (
      <div
        role="status"
        className="flex items-center gap-3 text-sm text-gray-700 dark:text-gray-300"
        data-testid="run-progress"
      >
        <span
          className="size-4 animate-spin rounded-full border-2 border-brand-600 border-t-transparent"
          aria-hidden="true"
        />
        {progress ? t('runs.parts', { done: progress.done, total: progress.total }) : t(`runs.status.${run.status}`)}
        {progress ? (
          <progress max={progress.total} value={progress.done} className="h-2 w-32 accent-brand-600" />
        ) : null}
      </div>
    );
  }
  if (run.status === 'failed') {
    return (
      <p
        role="alert"
        className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
        data-testid="run-failed"
      >
        {t('runs.failed', { reason: run.error ?? t('runs.noReason') })}
      </p>
    );
  }
  return null;
}

/** One run: its scorecard (or progress, or why it failed), where it came from, and what can be done with it. */
export function RunCard({
  run,
  promptName,
  format,
  language,
  onRerun,
  onDelete,
  busy,
  noModel = false,
}: {
  run: AnalysisRun;
  promptName: string;
  format: readonly FormatField[];
  language: string;
  onRerun: () => void;
  onDelete: () => void;
  busy: boolean;
  /** No chat model is connected: Run again would only fail. */
  noModel?: boolean;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [copied, setCopied] = useState(false);
  const when = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(run.createdAt),
  );
  const base = `${promptName.replace(/[^\w.-]+/g, '-').toLowerCase() || 'analysis'}-v${run.promptVersion}`;
  const copy = async () => {
    await navigator.clipboard?.writeText(runJson(run, promptName));
    setCopied(true);
  };
  return (
    <article
      className="rounded-2xl border border-gray-200 bg-white p-4 dark:border-gray-800 dark:bg-gray-900"
      data-testid="analysis-run"
      data-status={run.status}
    >
      <header className="mb-3 flex flex-wrap items-start gap-x-3 gap-y-1">
        <div className="mr-auto min-w-0">
          <h3 className="font-semibold text-gray-900 dark:text-white">
            {promptName}{' '}
            <span className="text-xs font-normal text-gray-500 dark:text-gray-400">v{run.promptVersion}</span>
          </h3>
          <p className="text-xs text-gray-500 dark:text-gray-400">
            <time dateTime={run.createdAt}>{when}</time>
            {run.model ? ` · ${run.model}` : ''}
            {run.usage
              ? ` · ${t('runs.tokens', { input: run.usage.inputTokens, output: run.usage.outputTokens })}`
              : ''}
          </p>
        </div>
        <div className="flex flex-wrap gap-1.5">
          <button type="button" className={small} onClick={onRerun} disabled={busy || noModel}>
            {t('runs.rerun')}
          </button>
          {run.status === 'completed' ? (
            <>
              <button type="button" className={small} onClick={() => void copy()}>
                {copied ? t('runs.copied') : t('runs.copy')}
              </button>
              <button
                type="button"
                className={small}
                onClick={() => saveFile(`${base}.json`, 'application/json', runJson(run, promptName))}
              >
                {t('runs.downloadJson')}
              </button>
              <button
                type="button"
                className={small}
                onClick={() => saveFile(`${base}.md`, 'text/markdown', runMarkdown(run, promptName, format))}
              >
                {t('runs.downloadMarkdown')}
              </button>
            </>
          ) : null}
          <button
            type="button"
            className={`${small} text-red-700 dark:text-red-300`}
            onClick={onDelete}
            disabled={busy}
            aria-label={t('runs.deleteNamed', { name: promptName })}
          >
            {t('runs.delete')}
          </button>
        </div>
      </header>
      <RunStatusLine run={run} />
      {run.status === 'completed' && run.result ? <Scorecard entries={scorecard(run.result, format)} /> : null}
      {run.status === 'completed' && run.actionItems ? <ActionItemsPanel run={run} language={language} /> : null}
    </article>
  );
}
