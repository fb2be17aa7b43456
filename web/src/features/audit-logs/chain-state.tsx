import type { ReactElement } from 'react';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { useLazyAuditChainQuery } from './audit-logs-api';
import { catalogue } from './i18n';

const button =
  'rounded-lg border border-gray-300 bg-white px-3 py-1.5 text-sm font-medium text-gray-700 hover:bg-gray-50 disabled:opacity-60 dark:border-gray-700 dark:bg-gray-900 dark:text-gray-200 dark:hover:bg-gray-800';

/**
 * The hash chain of the company the log is filtered by (the platform's own without one): verified
 * on demand, then whether it holds, its length and its head hash, or the first entry that breaks it.
 */
export function ChainState({ companyId, chainName }: { companyId: string | null; chainName: string }): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const [verify, result] = useLazyAuditChainQuery();
  // A result for another chain (the filter changed) is not shown as this one's.
  const state = result.originalArgs === companyId ? result.data : undefined;
  const failed = result.originalArgs === companyId && result.isError;
  const count = (n: number) => new Intl.NumberFormat(i18n.language).format(n);

  let body: ReactElement;
  if (result.isFetching) body = <span>{t('auditLog.chain.verifying')}</span>;
  else if (failed)
    body = (
      <span className="text-red-700 dark:text-red-300">{errorMessage(result.error) ?? t('auditLog.chain.failed')}</span>
    );
  else if (!state) body = <span className="text-gray-600 dark:text-gray-400">{t('auditLog.chain.notVerified')}</span>;
  else if (state.brokenAt) {
    body = (
      <span className="text-red-700 dark:text-red-300" data-testid="chain-broken">
        <strong className="font-semibold">
          {t('auditLog.chain.broken', { position: count(state.brokenAt.position) })}
        </strong>
        <span className="block break-words text-xs">{state.brokenAt.message}</span>
      </span>
    );
  } else {
    body = (
      <span data-testid="chain-ok">
        <strong className="font-semibold text-green-700 dark:text-green-300">✓ {t('auditLog.chain.verified')}</strong>{' '}
        {state.head ? (
          <>
            {t('auditLog.chain.detail', { entries: count(state.entries) })}{' '}
            <code className="font-mono text-xs" title={state.head}>
              {state.head.slice(0, 12)}…
            </code>
          </>
        ) : (
          t('auditLog.chain.empty')
        )}
      </span>
    );
  }

  return (
    <section
      aria-label={t('auditLog.chain.label')}
      aria-live="polite"
      data-testid="audit-chain"
      className="mb-3 flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border border-gray-200 bg-white px-3 py-2 text-sm text-gray-800 dark:border-gray-700 dark:bg-gray-900 dark:text-gray-200"
    >
      <span className="font-medium">{t('auditLog.chain.of', { chain: chainName })}</span>
      <span className="min-w-0 flex-1 basis-48">{body}</span>
      <button
        type="button"
        className={button}
        disabled={result.isFetching}
        onClick={() => void verify(companyId)}
        data-testid="audit-chain-verify"
      >
        {t('auditLog.chain.verify')}
      </button>
    </section>
  );
}
