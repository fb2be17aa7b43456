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
