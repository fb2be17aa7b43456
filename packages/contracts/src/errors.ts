import { z } from 'zod';

/** The one error body every route answers with (DESIGN: API conventions). */
export const ErrorBody = z.object({
  message: z.string(),
  code: z.string().optional(),
  details: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
