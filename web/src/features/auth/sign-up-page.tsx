import type { ReactElement } from 'react';
import { useText } from '../../i18n/text';
import { Alert, primaryButtonClass } from '../../components/text-field';
import { AuthLayout } from './auth-layout';
import { Link } from './signed-out';

/** Accounts are not self-service: an administrator creates them. */
export default function SignUpPage(): ReactElement {
  const { t } = useText();
  return (
    <AuthLayout title={t('auth.signUpTitle')}>
      <div className="space-y-6">
        <Alert tone="info" testId="signup-contact-admin">
          {t('auth.signUpText')}
        </Alert>
        <Link to="/signin" className={primaryButtonClass}>
          {t('auth.backToSignIn')}
        </Link>
      </div>
    </AuthLayout>
  );
}
