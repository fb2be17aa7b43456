import { useState, type FormEvent, type ReactElement } from 'react';
import { useText } from '../../i18n/text';
import { errorMessage } from '../../lib/error-message';
import { TextField } from '../../components/text-field';
import { authRequests, useRequest } from './auth-requests';
import { AuthForm, BackToSignIn } from './auth-form';
import { AuthLayout } from './auth-layout';
import { ChangePasswordStep } from './change-password-step';
import { useSignedOut } from './signed-out';

export default function TwoStepPage(): ReactElement {
  const { t } = useText();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [verify, isLoading] = useRequest(authRequests.verifyTwoStep);
  const completeSignIn = useSignedOut().signedIn;
  const [passwordChange, setPasswordChange] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    try {
      const answer = await verify({ code: code.replace(/\s+/g, '') });
      if ('user' in answer) completeSignIn(answer.user);
      else setPasswordChange(true);
    } catch (failure) {
      setError(errorMessage(failure) ?? t('auth.verifyFailed'));
    }
  };

  if (passwordChange) return <ChangePasswordStep />;
  return (
    <AuthLayout title={t('auth.twoStepTitle')} subtitle={t('auth.twoStepText')}>
      <AuthForm onSubmit={submit} error={error} busy={isLoading} submitLabel={t('auth.verify')}>
        <TextField
          label={t('auth.code')}
          name="code"
          autoComplete="one-time-code"
          required
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </AuthForm>
      <BackToSignIn />
    </AuthLayout>
  );
}
