import { z } from 'zod';

/*
 * Legal hold: a recording, a client or a whole company held stops every deletion of what
 * it covers (a person's delete, retention, erasure) until the hold is lifted. Placing and lifting
 * both say why; the audit log keeps who and why from the hold_changed events.
 */

export const HOLD_REASON_MAX = 500;
/** Line breaks and tabs are fine in a reason; NUL (PostgreSQL refuses it) and other control characters are not. */
// eslint-disable-next-line no-control-regex
const REASON_TEXT = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;

/** `PUT /api/files/{id}/hold`, `/api/clients/{id}/hold`, `/api/companies/{id}/hold`: place (true) or lift (false) a hold, with the reason. */
export const HoldBody = z.strictObject({
  hold: z.boolean(),
  reason: z
    .string()
    .trim()
    .min(1)
    .max(HOLD_REASON_MAX)
    .regex(REASON_TEXT, 'must not contain control characters other than tabs and line breaks'),
});
export type HoldBody = z.infer<typeof HoldBody>;

/**
 * The hold state after the request: `reason`, `by` (the user id of who placed or lifted it) and
 * `at` are those of the last change; all null for an object never held.
 */
export const HoldDto = z.object({
  hold: z.boolean(),
  reason: z.string().nullable(),
  by: z.string().nullable(),
  at: z.string().nullable(),
});
export type HoldDto = z.infer<typeof HoldDto>;

/**
 * A hold in force as a client or a company shows it (`hold` on ClientDto and CompanyDto): the
 * reason, who placed it (user id) and when; `null` when the object is not held now.
 */
export const ActiveHoldDto = z.object({ reason: z.string(), by: z.string(), at: z.string() });
export type ActiveHoldDto = z.infer<typeof ActiveHoldDto>;

/** What the console and the API say when a deletion meets a hold (409). */
export const HOLD_MESSAGES = {
  file: 'This recording is under legal hold: lift the hold before deleting it',
  client: "This recording's client is under legal hold: lift the client's hold before deleting it",
  company: 'This company is under legal hold: nothing of it can be deleted until the hold is lifted',
  clientHeld: 'This client is under legal hold: lift the hold before deleting it',
} as const;
export type HoldKind = 'file' | 'client' | 'company';
