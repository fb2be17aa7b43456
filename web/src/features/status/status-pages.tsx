// The product's status screens: 404, 500, 503, maintenance, coming soon and success.
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusPage } from './status-page';

export function NotFoundPage(): ReactElement {
  const { t } = useTranslation();
  return (
    <StatusPage
      code="404"
      testId="not-found-page"
      title={t('status.notFoundTitle')}
      text={t('status.notFoundText')}
      action={{ to: '/', label: t('status.backHome') }}
    />
  );
}

export function ServerErrorPage(): ReactElement {
  const { t } = useTranslation();
  return (
    <StatusPage
      code="500"
      title={t('status.serverErrorTitle')}
      text={t('status.serverErrorText')}
      action={{ to: '/', label: t('status.backHome') }}
    />
  );
}

export function UnavailablePage(): ReactElement {
  const { t } = useTranslation();
  return (
    <StatusPage
      code="503"
      title={t('status.unavailableTitle')}
      text={t('status.unavailableText')}
      action={{ to: '/', label: t('status.backHome') }}
    />
  );
}

export function MaintenancePage(): ReactElement {
  const { t } = useTranslation();
  return <StatusPage title={t('status.maintenanceTitle')} text={t('status.maintenanceText')} />;
}

export function ComingSoonPage({ embedded = false }: { embedded?: boolean }): ReactElement {
  const { t } = useTranslation();
  return (
    <StatusPage
      embedded={embedded}
      testId="coming-soon-page"
      title={t('status.comingSoonTitle')}
      text={t('status.comingSoonText')}
      action={embedded ? undefined : { to: '/', label: t('status.backHome') }}
    />
  );
}

export function SuccessPage(): ReactElement {
  const { t } = useTranslation();
  return (
    <StatusPage
      title={t('status.successTitle')}
      text={t('status.successText')}
      action={{ to: '/signin', label: t('auth.backToSignIn') }}
    />
  );
}
