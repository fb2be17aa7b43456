import type { ReactElement, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { reportCrash } from '../lib/report-crash';
import { ErrorBoundary } from './error-boundary';

const button = 'rounded-lg px-4 py-2 text-sm font-medium';

function CrashNotice({ error, retry, back }: { error: Error; retry: () => void; back: () => void }): ReactElement {
  const { t } = useTranslation();
  return (
    <section
      role="alert"
      data-testid="crash-notice"
      className="mx-auto my-8 max-w-lg rounded-2xl border border-red-200 bg-white p-6 text-center dark:border-red-900 dark:bg-gray-900"
    >
      <h2 className="mb-2 text-lg font-semibold text-gray-900 dark:text-white">{t('status.crashTitle')}</h2>
      <p className="mb-2 text-sm text-gray-600 dark:text-gray-400">{t('status.crashText')}</p>
      {/* The error's own words help whoever fixes it, not the person reading: kept, but folded away. */}
      <details className="mb-5 text-xs text-gray-500 dark:text-gray-400">
        <summary className="cursor-pointer">{t('status.crashDetails')}</summary>
        <p className="mt-1 break-words">{error.message}</p>
      </details>
      <div className="flex flex-wrap justify-center gap-3">
        <button type="button" onClick={retry} className={`${button} bg-brand-600 text-on-brand hover:bg-brand-700`}>
          {t('status.tryAgain')}
        </button>
        <button
          type="button"
          onClick={back}
          className={`${button} border border-gray-300 text-gray-700 hover:bg-gray-50 dark:border-gray-700 dark:text-gray-300 dark:hover:bg-white/5`}
        >
          {t('status.goBack')}
        </button>
      </div>
    </section>
  );
}

const historyBack = () => window.history.back();

/**
 * A page or dialog that fails to render shows what failed, with Try again and Go back (a dialog
 * passes its close as `onBack`), and is reported. Works outside the router too (the signed-out app).
 * `onRetry` runs before Try again renders the part again: the signed-in layout drops the cached
 * server answers there, since an answer the page did not expect is the usual cause and rendering
 * the same one again fails the same way.
 */
export function CrashBoundary({
  resetKey,
  onBack = historyBack,
  onRetry,
  children,
}: {
  resetKey?: unknown;
  onBack?: () => void;
  onRetry?: () => void;
  children: ReactNode;
}): ReactElement {
  return (
    <ErrorBoundary
      resetKey={resetKey}
      onError={reportCrash}
      fallback={(error, retry) => (
        <CrashNotice
          error={error}
          retry={() => {
            onRetry?.();
            retry();
          }}
          back={onBack}
        />
      )}
    >
      {children}
    </ErrorBoundary>
  );
}
