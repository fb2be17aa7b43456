import { z } from 'zod';

/**
 * Mail settings of the messaging service. Without SMTP_URL every message is written as an .eml file
 * under DATA_DIR/mail (and listed on the Outgoing mail page): the embedded default needs no mail
 * server, and no message is ever silently dropped.
 */
export const mailConfigShape = {
  SMTP_URL: z
    .string()
    .url()
    .refine((value) => /^smtps?:$/.test(new URL(value).protocol), 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().trim().min(3).max(320).default('Earshot <no-reply@earshot.localhost>'),
  /** Off in a process that should not send (a read-only replica); on by default. */
  MAIL_WORKER: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  /** How often the sender looks for due messages when nothing nudged it (ms). */
  MAIL_POLL_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
};

export interface MailConfig {
  SMTP_URL?: string;
  MAIL_FROM: string;
  MAIL_WORKER: boolean;
  MAIL_POLL_MS: number;
}
