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

export const badRequest = (message: string, details?: unknown) => new HttpError(400, message, ERROR_CODES.BAD_REQUEST, details);
export const unauthorized = (message: string = MESSAGES.notSignedIn) => new HttpError(401, message, ERROR_CODES.UNAUTHENTICATED);
export const forbidden = (message: string = MESSAGES.forbidden, code: string = ERROR_CODES.FORBIDDEN) => new HttpError(403, message, code);
export const notFound = (what = 'Resource') => new HttpError(404, `${what} not found`, ERROR_CODES.NOT_FOUND);
export const conflict = (message: string, details?: unknown) => new HttpError(409, message, ERROR_CODES.CONFLICT, details);
export const tooLarge = (message: string) => new HttpError(413, message, ERROR_CODES.TOO_LARGE);
export const unsupported = (message: string) => new HttpError(415, message, ERROR_CODES.UNSUPPORTED);
export const tooMany = (retryAfterSeconds: number, message: string = MESSAGES.tooManyAttempts) =>
  new HttpError(429, message, ERROR_CODES.RATE_LIMITED, undefined, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

/**
 * The unique violation (23505) behind `error`, with the constraint it broke; null for anything
 * else. Drizzle wraps driver errors, so the cause chain is followed. For the race a pre-check
 * cannot close (two requests creating the same thing at once).
 */
export function uniqueViolation(error: unknown): { constraint: string | null } | null {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505') return { constraint: typeof constraint === 'string' ? constraint : null };
  }
  return null;
}
