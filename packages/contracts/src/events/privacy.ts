import { z } from 'zod';
import { defineEvent } from './envelope';

const topic = 'earshot.privacy';

/** Whose data a privacy job is about: a user (an account) or a client contact, never both. */
export const PrivacySubject = z.object({
  kind: z.enum(['user', 'client']),
  id: z.string(),
});
export type PrivacySubject = z.infer<typeof PrivacySubject>;

/** Counts by kind (`{recordings: 3}`): a few kinds per service, never a list of objects. */
const Counts = z
  .record(z.string().max(60), z.number().int().nonnegative())
  .refine((counts) => Object.keys(counts).length <= 20, 'at most 20 kinds');

const requested = z.object({ jobId: z.string(), subject: PrivacySubject });

export const privacyEvents = [
  defineEvent({
    type: 'privacy.export_requested',
    version: 1,
    topic,
    description:
      "Everything held about one person was asked for (a user's or a client contact's): every service of PRIVACY_SERVICES writes its part to storage and reports privacy.part_ready; the auth service assembles the ZIP once all have.",
    data: requested,
  }),
  defineEvent({
    type: 'privacy.part_ready',
    version: 1,
    topic,
    description:
      "A service wrote its part of a person's export to storage (JSON, and audio where it holds some): the key of its manifest (a JSON list of {name in the ZIP, object key}, kept out of the event because a person may have thousands of recordings) and counts by kind.",
    data: z.object({
      jobId: z.string(),
      service: z.string(),
      manifest: z.string(),
      counts: Counts,
    }),
  }),
  defineEvent({
    type: 'privacy.erase_requested',
    version: 1,
    topic,
    description:
      "A person is to be erased (a user's account or a client contact): every service of PRIVACY_SERVICES removes what it holds about them (the recordings deleted or kept per `recordings`, through each service's own deletion path and its events) and reports privacy.part_erased; the job is done when all have.",
    data: requested.extend({ recordings: z.enum(['delete', 'keep']) }),
  }),
  defineEvent({
    type: 'privacy.part_erased',
    version: 1,
    topic,
    description:
      'A service removed what it held about a person: counts by kind of what it removed or anonymised (its part of the erasure report).',
    data: z.object({
      jobId: z.string(),
      service: z.string(),
      counts: Counts,
    }),
  }),
  defineEvent({
    type: 'privacy.erased',
    version: 1,
    topic,
    description:
      "Every service of PRIVACY_SERVICES reported its part of erasing a person: the erasure is done. Its actor is who asked; `parts` is the report, each service's counts (what the audit log keeps of the erasure).",
    data: z.object({
      jobId: z.string(),
      subject: PrivacySubject,
      recordings: z.enum(['delete', 'keep']),
      parts: z
        .record(z.string().max(60), Counts)
        .refine((parts) => Object.keys(parts).length <= 20, 'at most 20 services'),
    }),
  }),
] as const;
