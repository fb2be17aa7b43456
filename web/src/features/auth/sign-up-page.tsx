import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Alert, primaryButtonClass } from '../../components/text-field';
import { AuthLayout } from './auth-layout';

/** Accounts are not self-service: an administrator creates them. */
export default function SignUpPage(): ReactElement {
  const { t } = useTranslation();
  return (
    <AuthLayout title={t('auth.signUpTitle')}>
      <div className="space-y-6">
        <Alert tone="info" testId="signup-contact-admin">{t('auth.signUpText')}</Alert>
        <Link to="/signin" className={primaryButtonClass}>
          {t('auth.backToSignIn')}
        </Link>
      </div>
    </AuthLayout>
  );
}
