import { useState, type FormEvent, type ReactElement } from 'react';
import { errorMessage } from '../../lib/error-message';
import { useText } from '../../i18n/text';
import { authRequests, useRequest } from './auth-requests';
import { AuthForm, BackToSignIn } from './auth-form';
import { AuthLayout } from './auth-layout';
import { catalogue } from './i18n';
import { useNewPassword } from './new-password';
import { useSignedOut } from './signed-out';

/**
 * The last step of a sign-in with a one-time password (set by an administrator): the person
 * chooses their own, and the session starts. The server's pending cookie says whose it is.
 */
export function ChangePasswordStep(): ReactElement {
  const { t } = useText(catalogue);
  const { password, problem, fields } = useNewPassword();
  const [error, setError] = useState<string | null>(null);
  const [change, isLoading] = useRequest(authRequests.changeRequiredPassword);
  const completeSignIn = useSignedOut().signedIn;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(problem());
    if (problem()) return;
    try {
      completeSignIn((await change({ password })).user);
    } catch (failure) {
      setError(errorMessage(failure) ?? t('passwordChange.failed'));
    }
  };

  return (
    <AuthLayout title={t('passwordChange.title')} subtitle={t('passwordChange.text')}>
      <AuthForm onSubmit={submit} error={error} busy={isLoading} submitLabel={t('passwordChange.submit')}>
        {fields}
      </AuthForm>
      <BackToSignIn />
    </AuthLayout>
  );
}
