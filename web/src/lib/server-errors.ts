// The fields a server error names (`details: {field}` or `[{field, message}]`, field like
// 'body.email'), so a form can show each message on its input instead of in a toast.
import { errorMessage } from './api';

export interface FieldError {
  /** The body field, without the 'body.' prefix ('email'). */
  field: string;
  message: string;
}

export function serverFieldErrors(error: unknown): FieldError[] {
  if (!error || typeof error !== 'object' || !('data' in error)) return [];
  const data = (error as { data?: { details?: unknown } | null }).data;
  const raw = data?.details;
  const list = Array.isArray(raw) ? raw : raw && typeof raw === 'object' ? [raw] : [];
  const fallback = errorMessage(error) ?? '';
  return list.flatMap((item: unknown) => {
    if (!item || typeof item !== 'object') return [];
    const { field, message } = item as { field?: unknown; message?: unknown };
    if (typeof field !== 'string' || !field.startsWith('body.')) return [];
    // A 409's detail names only the field: the answer's message says what is wrong with it.
    return [{ field: field.slice('body.'.length), message: typeof message === 'string' ? message : fallback }];
  });
}

/**
 * Puts each named field's message on that field (react-hook-form's setError) and answers whether
 * any was placed; the caller shows the rest (a toast) when none was.
 */
export function placeFieldErrors<F extends string>(
  error: unknown,
  fields: readonly F[],
  setError: (field: F, value: { type: 'server'; message: string }) => void,
): boolean {
  let placed = false;
  for (const { field, message } of serverFieldErrors(error)) {
    if ((fields as readonly string[]).includes(field)) {
      setError(field as F, { type: 'server', message });
      placed = true;
    }
  }
  return placed;
}
