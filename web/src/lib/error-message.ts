// Apart from lib/api.ts (which creates the RTK Query API) so that the signed-out pages read the
// gateway's errors without downloading Redux Toolkit.
import type { ErrorBody } from '@earshot/contracts';

/** The `{message}` of an error answer (the gateway's error shape), if there is one. */
export function errorMessage(error: unknown): string | null {
  if (error && typeof error === 'object' && 'data' in error) {
    const data = (error as { data?: Partial<ErrorBody> | null }).data;
    if (data && typeof data === 'object' && typeof data.message === 'string' && data.message.trim())
      return data.message;
  }
  return null;
}
