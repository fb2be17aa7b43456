import { useState } from 'react';
import { formErrorsOf, NO_ERRORS, type FormErrors } from '../../lib/form-errors';
import type { Outcome } from './section-card';

/**
 * A section's answer: the server's complaints at their fields (lib/form-errors.ts), any other
 * refusal, or what went well, in the section's status line.
 */
export function useSectionOutcome(fallback: string) {
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [outcome, setOutcome] = useState<Outcome>(null);
  return {
    errors,
    outcome,
    succeeded(text: string) {
      setErrors(NO_ERRORS);
      setOutcome({ tone: 'success', text });
    },
    failed(error: unknown) {
      const found = formErrorsOf(error);
      setErrors(found);
      setOutcome(Object.keys(found.fields).length ? null : { tone: 'error', text: found.message ?? fallback });
    },
    reset() {
      setErrors(NO_ERRORS);
      setOutcome(null);
    },
  };
}
