import { ERROR_CODES, MESSAGES } from '@earshot/contracts';

/** An error whose message is safe to show the caller. Anything else becomes a generic 500. */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly code: string,
    public readonly details?: unknown,
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, details?: unknown) =>
  new HttpError(400, message, ERROR_CODES.BAD_REQUEST, details);
export const unauthorized = (message: string = MESSAGES.notSignedIn) =>
  new HttpError(401, message, ERROR_CODES.UNAUTHENTICATED);
export const forbidden = (message: string = MESSAGES.forbidden, code: string = ERROR_CODES.FORBIDDEN) =>
  new HttpError(403, message, code);
export const notFound = (what = 'Resource') => new HttpError(404, `${what} not found`, ERROR_CODES.NOT_FOUND);
export const conflict = (message: string, details?: unknown) =>
  new HttpError(409, message, ERROR_CODES.CONFLICT, details);
export const tooLarge = (message: string) => new HttpError(413, message, ERROR_CODES.TOO_LARGE);
export const unsupported = (message: string) => new HttpError(415, message, ERROR_CODES.UNSUPPORTED);
/**
 * The unique constraint a database error violated, following `cause` (drizzle wraps the driver's
 * error), or null when the error is something else.
 */
export function uniqueViolation(error: unknown): { constraint: string | undefined } | null {
  for (
    let e: unknown = error, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505') return { constraint: typeof constraint === 'string' ? constraint : undefined };
  }
  return null;
}

/** A unique-index race (two requests creating the same thing at once), optionally on one constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const violation = uniqueViolation(error);
  return violation !== null && (constraint === undefined || violation.constraint === constraint);
}

/** Not the caller's fault and not for long (a dependency unreachable, the process starting): ask again. */
export const serviceUnavailable = (message: string, retryAfterSeconds: number) =>
  new HttpError(503, message, 'SERVICE_UNAVAILABLE', undefined, { 'retry-after': String(retryAfterSeconds) });

export const tooMany = (retryAfterSeconds: number, message: string = MESSAGES.tooManyAttempts) =>
  new HttpError(429, message, ERROR_CODES.RATE_LIMITED, undefined, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
