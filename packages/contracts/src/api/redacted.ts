import { z } from 'zod';

/**
 * Beside a write's answer: how many spans (card numbers, phones, IBANs…) the company's redaction
 * hid in what was written (a transcript edit, a tag, a task, a client), each now its label
 * (`[card number]`). Only there when it hid something, so every other answer is as before. An
 * answer that is a list tells it in the REDACTED_HEADER instead.
 */
export const RedactedCount = z.object({ redacted: z.number().int().positive().optional() });
export type RedactedCount = z.infer<typeof RedactedCount>;

/** The answer's `redacted` field, only when redaction hid something (see RedactedCount). */
export const redactedField = (redacted: number): RedactedCount => (redacted ? { redacted } : {});
