import { AUTH_CODES } from '@earshot/contracts/constants';
import { errorMessage } from '../../lib/error-message';

export const LOGIN_FAILED = 'Login failed';

/** What a failed sign-in shows: the server's message, else 'Login failed'. */
export function loginErrorText(error: unknown, translatedFallback: string = LOGIN_FAILED): string {
  return errorMessage(error) ?? translatedFallback;
}

const codeOf = (error: unknown) =>
  error && typeof error === 'object' ? (error as { data?: { code?: unknown } | null }).data?.code : undefined;

/** The right password, but the company is switched off (suspended or inactive): shown in the chosen language. */
export function companySuspended(error: unknown): boolean {
  return codeOf(error) === AUTH_CODES.companySuspended;
}

/** An invited account that has not chosen its password yet: shown in the chosen language. */
export function invitationPending(error: unknown): boolean {
  return codeOf(error) === AUTH_CODES.invitationPending;
}
