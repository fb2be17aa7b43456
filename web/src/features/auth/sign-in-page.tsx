import { useEffect, useRef, useState, type FormEvent, type ReactElement } from 'react';
import { SSO_ERRORS, type SsoError } from '@earshot/contracts/constants';
import { SESSION_ERRORS } from '../../lib/session';
import { Icon } from '../../components/icons';
import { Alert, linkClass, primaryButtonClass, TextField } from '../../components/text-field';
import { browserStorage, STORAGE_KEYS } from '../../lib/storage-keys';
import { subdomainOf } from '../../lib/subdomain';
import { authRequests, useRequest } from './auth-requests';
import { AuthLayout } from './auth-layout';
import { ChangePasswordStep } from './change-password-step';
import { catalogue } from './i18n';
import { companySuspended, invitationPending, loginErrorText } from './login-error';
import { useText } from '../../i18n/text';
import { ProviderButtons } from './provider-buttons';
import { SsoButton, ssoStartUrl, useSsoOffer } from './sso-offer';
import { Link, useSearchParams, useSignedOut } from './signed-out';

/** Why the last session ended, in the chosen language ('Failed to refresh token', ...). */
function noticeText(notice: string, t: (key: string) => string): string {
  if (notice === SESSION_ERRORS.refreshFailed) return t('sessionErrors.refreshFailed');
  if (notice === SESSION_ERRORS.retryFailed) return t('sessionErrors.retryFailed');
  if (notice === SESSION_ERRORS.companySuspended) return t('companySuspended');
  return notice;
}

/** Errors the gateway sends back in `/signin?error=` after a Google or X sign-in (single sign-on's are `sso_*`). */
const PROVIDER_ERRORS: Record<string, string> = {
  provider_cancelled: 'auth.providerCancelled',
  provider_state: 'auth.providerFailed',
  provider_failed: 'auth.providerFailed',
  provider_no_email: 'auth.providerNoEmail',
  no_account: 'auth.providerNoAccount',
};

export default function SignInPage(): ReactElement {
  const { t } = useText(catalogue);
  const { navigate, notice, clearNotice, signedIn: completeSignIn } = useSignedOut();
  const [login, isLoading] = useRequest(authRequests.login);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  const params = useSearchParams();
  const providerError = params.get('error');
  const [error, setError] = useState<string | null>(() => {
    if (!providerError) return null;
    if (SSO_ERRORS.includes(providerError as SsoError)) return t(`sso.errors.${providerError}`);
    return t(PROVIDER_ERRORS[providerError] ?? 'auth.providerFailed');
  });
  const sso = useSsoOffer(email);
  // After a one-time password (here, or a provider sign-in sent back with ?step=change-password).
  const [passwordChange, setPasswordChange] = useState(() => params.get('step') === 'change-password');

  // After a Google or X sign-in the gateway sets the session cookies and sends the browser to
  // /chat; the guard, finding no stored user, stores /chat as the return URL and comes here. So
  // when a return URL waits, ask once (silently) whether there is a session, and carry on if so.
  // Once per visit of the page: later changes of the URL or of the callbacks do not ask again.
  const arrived = useRef(false);
  useEffect(() => {
    if (arrived.current) return;
    arrived.current = true;
    if (params.get('step') === 'two-step') {
      navigate('/two-step-verification', { replace: true });
      return;
    }
    if (!browserStorage().getItem(STORAGE_KEYS.returnUrl)) return;
    authRequests
      .sessionProbe()
      .then((user) => completeSignIn(user))
      .catch(() => undefined);
  }, [completeSignIn, navigate, params]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The company signs in through its own provider only: continuing goes there.
    const ssoUrl = sso?.required ? ssoStartUrl(sso, remember, window.location.origin) : null;
    if (ssoUrl) {
      window.location.assign(ssoUrl);
      return;
    }
    setError(null);
    clearNotice();
    const domain = subdomainOf(window.location.hostname) ?? undefined;
    try {
      const answer = await login({ email: email.trim(), password, remember, domain });
      if ('twoStepRequired' in answer) {
        navigate('/two-step-verification');
      } else if ('passwordChangeRequired' in answer) {
        setPasswordChange(true);
      } else if ('user' in answer && answer.user) {
        completeSignIn(answer.user);
      } else {
        setError(t('auth.loginFailed'));
      }
    } catch (failure) {
      setError(
        companySuspended(failure)
          ? t('companySuspended')
          : invitationPending(failure)
            ? t('invitationPending')
            : loginErrorText(failure, t('auth.loginFailed')),
      );
    }
  };

  if (passwordChange) return <ChangePasswordStep />;

  return (
    <AuthLayout title={t('auth.signInTitle')} subtitle={t('auth.signInSubtitle')}>
      <div className="space-y-5">
        {notice && (
          <Alert tone="info" testId="session-notice">
            {noticeText(notice, t)}
          </Alert>
        )}
        {sso ? <SsoButton offer={sso} remember={remember} /> : <ProviderButtons remember={remember} />}
        <div className="flex items-center gap-3 text-xs uppercase text-gray-600 dark:text-gray-400" aria-hidden="true">
          <span className="h-px flex-1 bg-gray-200 dark:bg-gray-800" />
          {t('auth.or')}
          <span className="h-px flex-1 bg-gray-200 dark:bg-gray-800" />
        </div>
        <form
          className="space-y-5"
          onSubmit={(event) => void submit(event)}
          noValidate={false}
          aria-describedby={error ? 'signin-error' : undefined}
        >
          <TextField
            label={t('auth.email')}
            type="email"
            name="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            placeholder={t('auth.emailPlaceholder')}
          />
          {sso?.required ? null : (
            <TextField
              label={t('auth.password')}
              type={showPassword ? 'text' : 'password'}
              name="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              placeholder={t('auth.passwordPlaceholder')}
              trailing={
                <button
                  type="button"
                  onClick={() => setShowPassword((shown) => !shown)}
                  aria-label={showPassword ? t('auth.hidePassword') : t('auth.showPassword')}
                  aria-pressed={showPassword}
                  className="inline-flex size-9 items-center justify-center rounded-md text-gray-600 hover:text-gray-900 dark:text-gray-400 dark:hover:text-white"
                >
                  <Icon name={showPassword ? 'eyeOff' : 'eye'} />
                </button>
              }
            />
          )}
          <div className="flex flex-wrap items-center justify-between gap-3">
            <label className="inline-flex items-center gap-2 text-sm text-gray-700 dark:text-gray-300">
              <input
                type="checkbox"
                name="remember"
                checked={remember}
                onChange={(e) => setRemember(e.target.checked)}
                className="size-4 rounded border-gray-300 accent-brand-600"
              />
              {t('auth.keepLoggedIn')}
            </label>
            <Link to="/reset-password" className={`text-sm ${linkClass}`}>
              {t('auth.forgotPassword')}
            </Link>
          </div>
          {error && (
            <div id="signin-error">
              <Alert testId="signin-error">{error}</Alert>
            </div>
          )}
          <button type="submit" className={primaryButtonClass} disabled={isLoading}>
            {isLoading ? t('auth.signingIn') : t('auth.signInButton')}
          </button>
        </form>
        <p className="text-center text-sm text-gray-700 dark:text-gray-400">
          {t('auth.noAccount')}{' '}
          <Link to="/signup" className={linkClass}>
            {t('auth.signUpLink')}
          </Link>
        </p>
      </div>
    </AuthLayout>
  );
}
