import { z } from 'zod';

/**
 * Encryption at rest of a company's recordings: whether new uploads are encrypted, and
 * how far the background pass that encrypts the recordings stored before has come.
 */
export const EncryptionProgressDto = z.object({
  encrypt: z.boolean(),
  state: z.enum(['idle', 'running', 'done']),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
});
export type EncryptionProgressDto = z.infer<typeof EncryptionProgressDto>;
