import { z } from 'zod';

/** The one error body every route answers with (DESIGN: API conventions). */
export const ErrorBody = z.object({
  message: z.string(),
  code: z.string().optional(),
  details: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const ERROR_CODES = {
  BAD_REQUEST: 'BAD_REQUEST',
  VALIDATION: 'VALIDATION_FAILED',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  CSRF: 'CSRF_REJECTED',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED: 'UNSUPPORTED_MEDIA_TYPE',
  RATE_LIMITED: 'RATE_LIMITED',
  INTERNAL: 'INTERNAL',
} as const;

export const MESSAGES = {
  invalidCredentials: 'Invalid email or password',
  notSignedIn: 'You are not signed in',
  forbidden: 'Your role does not allow this',
  notFound: 'Not found',
  csrf: 'Cross-site request rejected: send the X-Requested-With header',
  internal: 'Something went wrong on our side',
  tooManyAttempts: 'Too many attempts, try again later',
} as const;
