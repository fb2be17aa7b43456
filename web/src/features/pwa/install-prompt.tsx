import { useState, useSyncExternalStore, type ReactElement } from 'react';
import { useText } from '../../i18n/text';
import { Icon } from '../../components/icons';
import { MOBILE_QUERY, useMediaQuery } from '../../components/use-media-query';
import { browserStorage } from '../../lib/storage-keys';
import { installEvents } from './install-events';
import { isIos, readDismissedAt, rememberDismissal, shouldShowInstallPrompt } from './install-rules';

function isStandalone(): boolean {
  const nav = navigator as Navigator & { standalone?: boolean };
  return (
    nav.standalone === true ||
    (typeof window.matchMedia === 'function' && window.matchMedia('(display-mode: standalone)').matches)
  );
}

/**
 * Offers to install the app on phones (not standalone, not installed, not dismissed in 24 h).
 * Loaded lazily; the browser's offer is caught at start-up by install-events.ts.
 */
export default function InstallPrompt(): ReactElement | null {
  const { t } = useText();
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const { offer: deferred, installed } = useSyncExternalStore(installEvents.subscribe, installEvents.snapshot);
  const [dismissedAt, setDismissedAt] = useState(() => readDismissedAt(browserStorage()));
  const ios = isIos(navigator.userAgent, navigator.maxTouchPoints ?? 0);

  const show =
    (deferred !== null || ios) &&
    shouldShowInstallPrompt({
      isMobile,
      isStandalone: isStandalone(),
      isInstalled: installed,
      dismissedAt,
      now: Date.now(),
    });
  if (!show) return null;

  const dismiss = () => {
    const now = Date.now();
    rememberDismissal(browserStorage(), now);
    setDismissedAt(now);
  };
  const install = async () => {
    if (!deferred) return;
    try {
      await deferred.prompt();
      const choice = await deferred.userChoice;
      installEvents.used(choice.outcome === 'accepted');
      if (choice.outcome !== 'accepted') dismiss();
    } catch (error) {
      console.error('Install prompt failed', error);
      installEvents.used(false);
    }
  };

  return (
    <div
      role="region"
      aria-label={t('pwa.installTitle')}
      className="fixed inset-x-3 bottom-3 z-50 rounded-2xl border border-gray-200 bg-white p-4 shadow-xl dark:border-gray-700 dark:bg-gray-900"
      data-testid="install-prompt"
    >
      <div className="flex items-start gap-3">
        <Icon name="download" className="mt-0.5 shrink-0 text-brand-600" />
        <div className="flex-1">
          <p className="font-medium text-gray-900 dark:text-white">{t('pwa.installTitle')}</p>
          <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">
            {deferred ? t('pwa.installText') : t('pwa.iosHint')}
          </p>
          <div className="mt-3 flex gap-2">
            {deferred && (
              <button
                type="button"
                onClick={() => void install()}
                className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-on-brand hover:bg-brand-700"
              >
                {t('pwa.install')}
              </button>
            )}
            <button
              type="button"
              onClick={dismiss}
              className="rounded-lg border border-gray-300 px-4 py-2 text-sm text-gray-700 hover:bg-gray-50 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800"
            >
              {t('pwa.dismiss')}
            </button>
          </div>
        </div>
      </div>
    </div>
  );
}
