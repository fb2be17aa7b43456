import { z } from 'zod';
import { Id } from '../common';

/**
 * The services that hold a person's data and answer a privacy job (the person's data exported or
 * erased) with their part; a job is done when each has.
 */
export const PRIVACY_SERVICES = [
  'auth',
  'tenant',
  'file',
  'transcription',
  'chat',
  'prompt',
  'audit',
  'messaging',
  'tasks',
  'webhooks',
] as const;
export type PrivacyService = (typeof PRIVACY_SERVICES)[number];

/** Exactly one of userId / clientId: whose data. */
const person = {
  userId: Id.optional().describe('A user (an account) whose data to export or erase'),
  clientId: Id.optional().describe('A client contact whose data to export or erase'),
};
const exactlyOne = (body: { userId?: string; clientId?: string }, ctx: z.RefinementCtx) => {
  if ((body.userId === undefined) === (body.clientId === undefined)) {
    ctx.addIssue({ code: 'custom', path: ['userId'], message: 'Give exactly one of userId and clientId' });
  }
};

export const PrivacyExportBody = z.object(person).strict().superRefine(exactlyOne);
export type PrivacyExportBody = z.infer<typeof PrivacyExportBody>;

/**
 * Erase a person. `recordings` is the company's choice for the recordings the person uploaded (a
 * user) or that are linked to them (a client contact): 'delete' removes them with their transcripts
 * everywhere; 'keep' keeps them under the company with the person's name taken off (uploader or
 * client link cleared).
 */
export const PrivacyEraseBody = z
  .object({
    ...person,
    recordings: z
      .enum(['delete', 'keep'])
      .describe("What becomes of the person's recordings: removed, or kept under the company without the person"),
  })
  .strict()
  .superRefine(exactlyOne);
export type PrivacyEraseBody = z.infer<typeof PrivacyEraseBody>;

/**
 * What `POST /api/privacy/erase` answers (409) when a legal hold covers what the erasure would
 * remove; `details` lists each hold in force as `{kind, id}` (a recording, a client, the company).
 * The company's and the client's own holds use the messages of every other refused deletion.
 */
export const ERASE_HOLD_MESSAGES = {
  recordings:
    "Some of this person's recordings are under legal hold (their own or their client's): lift the holds, or keep the recordings",
} as const;

export const PrivacyJobAccepted = z.object({ jobId: Id });

/** `queued`: waiting for its company's turn (companies take turns, a few of each at once). */
export const PrivacyJobStatus = z.enum(['queued', 'running', 'done', 'failed']);

const PrivacyJobKind = z.enum(['export', 'erase']);
const PrivacySubject = z.object({ kind: z.enum(['user', 'client']), id: Id });

export const PrivacyJobDto = z.object({
  jobId: Id,
  kind: PrivacyJobKind,
  subject: PrivacySubject,
  status: PrivacyJobStatus,
  /** Parts reported so far, per service, with counts by kind (what was exported or removed). */
  parts: z.array(z.object({ service: z.string(), counts: z.record(z.string(), z.number().int().nonnegative()) })),
  pendingServices: z.array(z.string()),
  /** The ZIP (an export that is done): an authenticated GET, the same rights as the job. */
  download: z.string().nullable(),
  createdAt: z.string().datetime(),
  finishedAt: z.string().datetime().nullable(),
  /** A queued job's 1-based place in its company's line (1: the company's next to start); null otherwise. */
  position: z.number().int().positive().nullable(),
});
export type PrivacyJobDto = z.infer<typeof PrivacyJobDto>;

/**
 * GET /privacy/queue: a company's share of the privacy jobs. Its cap (jobs of the company running
 * at once, every process together), how many run and wait now, and the waiting ones in the
 * company's line (its first 100; `pending` counts them all).
 */
export const PrivacyQueueDto = z.object({
  companyId: z.string(),
  cap: z.number().int(),
  running: z.number().int(),
  pending: z.number().int(),
  items: z.array(
    z.object({
      jobId: Id,
      kind: PrivacyJobKind,
      subject: PrivacySubject,
      position: z.number().int().positive(),
      createdAt: z.string().datetime(),
    }),
  ),
});
export type PrivacyQueueDto = z.infer<typeof PrivacyQueueDto>;

export const PrivacyJobParams = z.object({ jobId: Id });
