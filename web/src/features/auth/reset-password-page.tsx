import { useState, type FormEvent, type ReactElement } from 'react';
import { errorMessage } from '../../lib/error-message';
import { Alert, TextField } from '../../components/text-field';
import { useText } from '../../i18n/text';
import { useBrand } from '../../lib/brand';
import { subdomainOf } from '../../lib/subdomain';
import { authRequests, useRequest } from './auth-requests';
import { AuthForm, BackToSignIn } from './auth-form';
import { AuthLayout } from './auth-layout';
import { catalogue } from './i18n';
import { useNewPassword } from './new-password';
import { useSearchParams, useSignedOut } from './signed-out';

/**
 * Without ?token= : ask for a reset link. With it: set a new password, or with &invite=1 the first
 * one of an invited account (the server then signs the person in).
 */
export default function ResetPasswordPage(): ReactElement {
  const params = useSearchParams();
  const token = params.get('token');
  return token ? <NewPasswordForm token={token} invitation={params.get('invite') === '1'} /> : <RequestLinkForm />;
}

function RequestLinkForm(): ReactElement {
  const { t } = useText();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [forgot, isLoading] = useRequest(authRequests.forgotPassword);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    try {
      await forgot({ email: email.trim(), domain: subdomainOf(window.location.hostname) ?? undefined });
      setSent(true);
    } catch (failure) {
      setError(errorMessage(failure) ?? t('auth.resetRequestFailed'));
    }
  };

  return (
    <AuthLayout title={t('auth.resetTitle')} subtitle={t('auth.resetText')}>
      {sent ? (
        <Alert tone="success" testId="reset-sent">
          {t('auth.resetSent')}
        </Alert>
      ) : (
        <AuthForm onSubmit={submit} error={error} busy={isLoading} submitLabel={t('auth.sendResetLink')}>
          <TextField
            label={t('auth.email')}
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            placeholder={t('auth.emailPlaceholder')}
          />
        </AuthForm>
      )}
      <BackToSignIn />
    </AuthLayout>
  );
}

function NewPasswordForm({ token, invitation }: { token: string; invitation: boolean }): ReactElement {
  const { t } = useText();
  const feature = useText(catalogue).t;
  const brand = useBrand();
  const { password, problem, fields } = useNewPassword();
  const [error, setError] = useState<string | null>(null);
  const [reset, isLoading] = useRequest(authRequests.resetPassword);
  const { navigate, signedIn: completeSignIn } = useSignedOut();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(problem());
    if (problem()) return;
    try {
      const { user } = await reset({ token, password });
      // An accepted invitation comes with a session; otherwise the link is spent: /success leads back
      // to sign-in, and Back never shows the form again.
      if (user) completeSignIn(user);
      else navigate('/success', { replace: true });
    } catch (failure) {
      setError(errorMessage(failure) ?? (invitation ? feature('invitation.failed') : t('auth.resetFailed')));
    }
  };

  return (
    <AuthLayout
      title={invitation ? feature('invitation.title', { company: brand.name }) : t('auth.newPasswordTitle')}
      subtitle={invitation ? feature('invitation.text') : undefined}
    >
      <AuthForm
        onSubmit={submit}
        error={error}
        busy={isLoading}
        submitLabel={invitation ? feature('invitation.submit') : t('auth.setPassword')}
      >
        {fields}
      </AuthForm>
      <BackToSignIn />
    </AuthLayout>
  );
}
