import { useState, type FormEvent, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { errorMessage } from '../../lib/api';
import { Alert, TextField } from '../../components/text-field';
import { subdomainOf } from '../../lib/subdomain';
import { useForgotPasswordMutation, useResetPasswordMutation } from './auth-api';
import { AuthForm, BackToSignIn } from './auth-form';
import { AuthLayout } from './auth-layout';
import { PASSWORD_RULES } from '@earshot/contracts/constants';

/** Without ?token= : ask for a reset link. With it: set a new password. */
export default function ResetPasswordPage(): ReactElement {
  const [params] = useSearchParams();
  const token = params.get('token');
  return token ? <NewPasswordForm token={token} /> : <RequestLinkForm />;
}

function RequestLinkForm(): ReactElement {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [forgot, { isLoading }] = useForgotPasswordMutation();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    try {
      await forgot({ email: email.trim(), domain: subdomainOf(window.location.hostname) ?? undefined }).unwrap();
      setSent(true);
    } catch (failure) {
      setError(errorMessage(failure) ?? t('auth.resetRequestFailed'));
    }
  };

  return (
    <AuthLayout title={t('auth.resetTitle')} subtitle={t('auth.resetText')}>
      {sent ? (
        <Alert tone="success" testId="reset-sent">{t('auth.resetSent')}</Alert>
      ) : (
        <AuthForm onSubmit={submit} error={error} busy={isLoading} submitLabel={t('auth.sendResetLink')}>
          <TextField label={t('auth.email')} type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} placeholder={t('auth.emailPlaceholder')} />
        </AuthForm>
      )}
      <BackToSignIn />
    </AuthLayout>
  );
}

function NewPasswordForm({ token }: { token: string }): ReactElement {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [reset, { isLoading }] = useResetPasswordMutation();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (password.length < PASSWORD_RULES.minLength) return setError(t('auth.passwordTooShort', { count: PASSWORD_RULES.minLength }));
    if (password !== confirm) return setError(t('auth.passwordsDontMatch'));
    setError(null);
    try {
      await reset({ token, password }).unwrap();
      setDone(true);
    } catch (failure) {
      setError(errorMessage(failure) ?? t('auth.resetFailed'));
    }
  };

  return (
    <AuthLayout title={t('auth.newPasswordTitle')}>
      {done ? (
        <Alert tone="success" testId="password-changed">{t('auth.passwordChanged')}</Alert>
      ) : (
        <AuthForm onSubmit={submit} error={error} busy={isLoading} submitLabel={t('auth.setPassword')}>
          <TextField label={t('auth.newPassword')} type="password" name="password" autoComplete="new-password" required minLength={PASSWORD_RULES.minLength} value={password} onChange={(e) => setPassword(e.target.value)} />
          <TextField label={t('auth.confirmPassword')} type="password" name="confirm" autoComplete="new-password" required value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        </AuthForm>
      )}
      <BackToSignIn />
    </AuthLayout>
  );
}
