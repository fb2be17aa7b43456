import type { FormEvent, ReactElement, ReactNode } from 'react';
import { Alert, linkClass, primaryButtonClass } from '../../components/text-field';
import { useText } from '../../i18n/text';
import { Link } from './signed-out';

interface AuthFormProps {
  onSubmit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
  error: string | null;
  busy: boolean;
  submitLabel: string;
  children: ReactNode;
}

/** A sign-in family form: its fields, the error (announced), and the submit button. */
export function AuthForm({ onSubmit, error, busy, submitLabel, children }: AuthFormProps): ReactElement {
  return (
    <form className="space-y-5" onSubmit={(event) => void onSubmit(event)}>
      {children}
      {error && <Alert testId="form-error">{error}</Alert>}
      <button type="submit" className={primaryButtonClass} disabled={busy}>
        {submitLabel}
      </button>
    </form>
  );
}

export function BackToSignIn(): ReactElement {
  const { t } = useText();
  return (
    <p className="mt-6 text-center text-sm">
      <Link to="/signin" className={linkClass}>
        {t('auth.backToSignIn')}
      </Link>
    </p>
  );
}
