import { errorMessage } from '../../lib/api';

export const LOGIN_FAILED = 'Login failed';

/** What a failed sign-in shows: the server's message, else 'Login failed' (spec part 8). */
export function loginErrorText(error: unknown, translatedFallback: string = LOGIN_FAILED): string {
  return errorMessage(error) ?? translatedFallback;
}
