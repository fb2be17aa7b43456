// Puts the server's validation answer next to the fields it names. A 400 of the gateway's
// validation is `{message, details: [{field: 'body.baseUrl', message}]}`; other refusals (a
// blocked address, a duplicate model) are a message, shown above the form unless the page knows
// which field it concerns.
import { errorMessage } from '../../lib/api';

export interface FormErrors {
  fields: Record<string, string>;
  message: string | null;
}

export const NO_ERRORS: FormErrors = { fields: {}, message: null };

export function formErrorsOf(error: unknown, fieldOfMessage: (message: string) => string | null = () => null): FormErrors {
  const fields: Record<string, string> = {};
  const data = error && typeof error === 'object' && 'data' in error ? (error as { data?: unknown }).data : undefined;
  const details = data && typeof data === 'object' && 'details' in data ? (data as { details?: unknown }).details : undefined;
  if (Array.isArray(details)) {
    for (const detail of details as Array<{ field?: unknown; message?: unknown }>) {
      if (typeof detail?.field !== 'string' || typeof detail.message !== 'string') continue;
      const field = detail.field.replace(/^body\./, '').split('.')[0]!;
      fields[field] ??= detail.message;
    }
  }
  const message = errorMessage(error);
  if (Object.keys(fields).length > 0) return { fields, message: null };
  const field = message ? fieldOfMessage(message) : null;
  return field && message ? { fields: { [field]: message }, message: null } : { fields, message };
}
