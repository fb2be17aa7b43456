import { Suspense, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router-dom';
import { PageSpinner } from '../components/spinner';
import { BrandingGate } from '../features/branding/branding-gate';
import { InstallPrompt } from '../features/pwa/install-prompt';
import { TitleUpdater } from './title';

/** Every route renders inside the company branding, with the page title and the install prompt. */
export function Root(): ReactElement {
  const { t } = useTranslation();
  return (
    <BrandingGate>
      <TitleUpdater />
      <Suspense fallback={<PageSpinner label={t('common.loading')} />}>
        <Outlet />
      </Suspense>
      <InstallPrompt />
    </BrandingGate>
  );
}
