// Puts the server's validation answer next to the fields it names. A 400 of the gateway's
// validation is `{message, details: [{field: 'body.baseUrl', message}]}`; other refusals (a
// blocked address, a duplicate model) are a message, shown above the form unless the page knows
// which field it concerns.
import { errorMessage } from './api';
import { serverFieldErrors } from './server-errors';

export interface FormErrors {
  fields: Record<string, string>;
  message: string | null;
}

export const NO_ERRORS: FormErrors = { fields: {}, message: null };

export function formErrorsOf(
  error: unknown,
  fieldOfMessage: (message: string) => string | null = () => null,
): FormErrors {
  const fields: Record<string, string> = {};
  // A nested field ('body.settings.theme') is shown at its top-level control.
  for (const { field, message } of serverFieldErrors(error)) fields[field.split('.')[0]!] ??= message;
  const message = errorMessage(error);
  if (Object.keys(fields).length > 0) return { fields, message: null };
  const field = message ? fieldOfMessage(message) : null;
  return field && message ? { fields: { [field]: message }, message: null } : { fields, message };
}
