import { useState, type ReactElement } from 'react';
import { useText } from '../../i18n/text';
import { PASSWORD_RULES } from '@earshot/contracts/constants';
import { TextField } from '../../components/text-field';

/**
 * A new password typed twice (reset link, first sign-in with a one-time password): the fields, and
 * what is wrong with them before anything is sent (null when nothing is).
 */
export function useNewPassword(): { password: string; problem: () => string | null; fields: ReactElement } {
  const { t } = useText();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const problem = () => {
    if (password.length < PASSWORD_RULES.minLength)
      return t('auth.passwordTooShort', { count: PASSWORD_RULES.minLength });
    return password === confirm ? null : t('auth.passwordsDontMatch');
  };
  const fields = (
    <>
      <TextField
        label={t('auth.newPassword')}
        type="password"
        name="password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_RULES.minLength}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <TextField
        label={t('auth.confirmPassword')}
        type="password"
        name="confirm"
        autoComplete="new-password"
        required
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
      />
    </>
  );
  return { password, problem, fields };
}
