import { useState, type ReactElement } from 'react';
import { errorMessage } from '../../lib/api';
import { buttonClass } from '../../components/form-parts';
import type { ConnectionTestResult } from './model';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';

/** 'Test connection': asks the provider, then shows what it said (latency and models, or its error). */
export function ConnectionTest({ run }: { run: () => Promise<ConnectionTestResult> }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ConnectionTestResult | null>(null);

  const onTest = async () => {
    setBusy(true);
    setResult(null);
    try {
      setResult(await run());
    } catch (error) {
      setResult({ ok: false, message: errorMessage(error) ?? t('aiConfig.test.failed') });
    }
    setBusy(false);
  };

  return (
    <div className="flex flex-col items-start gap-1">
      <button
        type="button"
        onClick={() => void onTest()}
        disabled={busy}
        className={buttonClass.row}
        data-testid="test-connection"
      >
        {busy ? t('aiConfig.test.running') : t('aiConfig.test.button')}
      </button>
      {result ? (
        <p
          role={result.ok ? 'status' : 'alert'}
          data-testid="test-result"
          data-ok={result.ok}
          className={`max-w-xs text-xs break-words ${result.ok ? 'text-green-800 dark:text-green-300' : 'text-red-700 dark:text-red-300'}`}
        >
          {result.ok ? t('aiConfig.test.ok') : t('aiConfig.test.notOk')}
          {result.latencyMs !== undefined ? ` · ${t('aiConfig.test.latency', { ms: result.latencyMs })}` : ''}
          {result.models?.length ? ` · ${t('aiConfig.test.models', { count: result.models.length })}` : ''}
          <span className="block text-gray-600 dark:text-gray-400" title={result.models?.join(', ')}>
            {result.message}
          </span>
        </p>
      ) : null}
    </div>
  );
}
