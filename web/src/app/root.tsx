import { Suspense, lazy, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router-dom';
import { CrashBoundary } from '../components/crash-notice';
import { PageSpinner } from '../components/spinner';
import { BrandingGate } from '../features/branding/branding-gate';
import { TitleUpdater } from './title';

// Phones only, and after the first paint: its offer is caught at start-up (see install-events.ts).
const InstallPrompt = lazy(() => import('../features/pwa/install-prompt'));

/** Every route renders inside the company branding, with the page title and the install prompt. */
export function Root(): ReactElement {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <BrandingGate>
      <TitleUpdater />
      <CrashBoundary resetKey={pathname}>
        <Suspense fallback={<PageSpinner label={t('common.loading')} />}>
          <Outlet />
        </Suspense>
      </CrashBoundary>
      <Suspense fallback={null}>
        <InstallPrompt />
      </Suspense>
    </BrandingGate>
  );
}
