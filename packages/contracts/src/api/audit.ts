import { z } from 'zod';
import { Actor } from '../events/envelope';
import { PageQuery, paginated } from '../common';

/** An ISO-8601 date (2026-01-31) or date-time with offset (2026-01-31T12:00:00Z). */
const IsoInstant = z.union([z.iso.date(), z.iso.datetime({ offset: true })], { error: 'must be an ISO-8601 date or date-time' });

export const AuditQuery = PageQuery.extend({
  companyId: z.string().trim().min(1).max(64).optional(),
  actorId: z.string().trim().min(1).max(64).optional(),
  /** An exact type (`user.signed_in`) or a prefix ending in a dot (`user.`). */
  type: z.string().trim().regex(/^[a-z_]+(\.[a-z_]*)?$/, 'must be an event type like user.signed_in or a prefix like user.').optional(),
  /** Inclusive lower bound on occurredAt; a bare date means its start (UTC). */
  from: IsoInstant.optional(),
  /** Inclusive upper bound on occurredAt; a bare date means its end (UTC). */
  to: IsoInstant.optional(),
}).strict();
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AuditEntryDto = z.object({
  _id: z.string(),
  occurredAt: z.string(),
  type: z.string(),
  version: z.number().int(),
  companyId: z.string().nullable(),
  actor: Actor,
  /** What the event is about: the domain of its type and the entity id, when it names one. */
  target: z.object({ type: z.string(), id: z.string().nullable() }),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  /** The event's data, with secret-looking fields redacted. */
  data: z.record(z.string(), z.unknown()),
});
export type AuditEntryDto = z.infer<typeof AuditEntryDto>;

export const AuditPage = paginated(AuditEntryDto);
export type AuditPage = z.infer<typeof AuditPage>;
