import { z } from 'zod';

/** The one error body every route answers with (DESIGN: API conventions). */
export const ErrorBody = z.object({
  message: z.string(),
  code: z.string().optional(),
  details: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The error answers every authenticated route may give, for its response schema. */
export const ERROR_RESPONSES = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody } as const;

/**
 * Encryption at rest asked of a server that has no master key configured. The messages name the
 * variable to set, since only an operator can fix it and the console shows the message as it is.
 * Turning encryption on is refused (409, code CONFLICT); a write that would have to encrypt
 * answers 503 with ENCRYPTION_KEY_MISSING (the server, not the request, is what is missing).
 */
export const ENCRYPTION_KEY_MISSING = 'ENCRYPTION_KEY_MISSING';
export const MASTER_KEY_MESSAGES = {
  cannotTurnOn:
    'Encryption at rest cannot be turned on: this server has no master key configured. Set ENCRYPTION_MASTER_KEY (or ENCRYPTION_MASTER_KEY_FILE) on every service, restart, then turn it on',
  unavailable:
    "This company's data is encrypted at rest, but this server has no master key configured: set ENCRYPTION_MASTER_KEY (or ENCRYPTION_MASTER_KEY_FILE) and restart",
} as const;
