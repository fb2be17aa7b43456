import { useState, type FormEvent, type ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { inputClass } from '../../components/text-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import {
  analysisCatalogue as catalogue,
  NO_CHAT_MODEL,
  type AvailablePrompt,
  type Pattern,
} from '../../entities/transcripts';
import type { RunTarget } from './analysis-api';

/** What running a prompt answered when it could not start: the no-model case is said plainly, with where to fix it. */
export function StartError({ error }: { error: unknown }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const code =
    error && typeof error === 'object' && 'data' in error
      ? (error as { data?: { code?: unknown } | null }).data?.code
      : undefined;
  return (
    <div
      role="alert"
      className="mt-3 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100"
      data-testid="run-start-error"
    >
      {code === NO_CHAT_MODEL ? (
        <>
          {t('run.noModel')}{' '}
          <Link to="/ai-config" className="font-medium underline">
            {t('run.aiConfig')}
          </Link>
        </>
      ) : (
        (errorMessage(error) ?? t('run.startFailed'))
      )}
    </div>
  );
}

/**
 * Said before Run, not after it fails, when no chat model is connected: the platform administrator
 * is pointed to AI Configuration, anyone else (who cannot open it) to their administrator.
 */
export function NoModelNotice({ host }: { host: boolean }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  return (
    <p
      id="run-no-model"
      role="status"
      className="mt-3 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100"
      data-testid="run-no-model"
    >
      {host ? (
        <>
          {t('run.noModel')}{' '}
          <Link to="/ai-config" className="font-medium underline">
            {t('run.aiConfig')}
          </Link>
        </>
      ) : (
        t('run.needsModel')
      )}
    </p>
  );
}

/** Pick a prompt or a pattern and run it on this transcript. */
export function RunPicker({
  fileId,
  prompts,
  patterns,
  busy,
  noModel = false,
  onRun,
}: {
  fileId: string;
  prompts: AvailablePrompt[];
  patterns: Pattern[];
  busy: boolean;
  /** No chat model is connected: nothing can run (the page says why beside it). */
  noModel?: boolean;
  onRun: (target: RunTarget) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [choice, setChoice] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const [kind, id] = choice.split(':') as [string, string];
    if (!id) return;
    onRun(kind === 'pattern' ? { fileId, patternId: id } : { fileId, promptId: id });
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end" data-testid="run-picker">
      <label className="flex-1 text-sm font-medium text-gray-700 dark:text-gray-300">
        {t('run.choose')}
        <select
          className={`${inputClass} mt-1.5`}
          value={choice}
          onChange={(event) => setChoice(event.target.value)}
          data-testid="run-choice"
        >
          <option value="">{prompts.length + patterns.length > 0 ? t('run.placeholder') : t('run.nothing')}</option>
          {prompts.length > 0 ? (
            <optgroup label={t('run.prompts')}>
              {prompts.map((prompt) => (
                <option key={prompt._id} value={`prompt:${prompt._id}`}>
                  {prompt.name}
                </option>
              ))}
            </optgroup>
          ) : null}
          {patterns.length > 0 ? (
            <optgroup label={t('run.patterns')}>
              {patterns.map((pattern) => (
                <option key={pattern._id} value={`pattern:${pattern._id}`}>
                  {pattern.name}
                </option>
              ))}
            </optgroup>
          ) : null}
        </select>
      </label>
      <button
        type="submit"
        disabled={busy || noModel || !choice}
        aria-describedby={noModel ? 'run-no-model' : undefined}
        className="h-11 rounded-lg bg-brand-600 px-5 text-sm font-medium text-on-brand hover:bg-brand-700 disabled:opacity-60"
        data-testid="run-start"
      >
        {t('run.start')}
      </button>
    </form>
  );
}
