import { z } from 'zod';
import { Actor } from '../events/envelope';
import { PageQuery } from '../common';

/** An ISO-8601 date (2026-01-31) or date-time with offset (2026-01-31T12:00:00Z). */
const IsoInstant = z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
  error: 'must be an ISO-8601 date or date-time',
});

/** What the log can be narrowed by; the list and the export take the same filters. */
export const AuditFilters = z.object({
  companyId: z.string().trim().min(1).max(64).optional(),
  actorId: z.string().trim().min(1).max(64).optional(),
  /** The actor's e-mail, exact (case-insensitive). */
  actorEmail: z.string().trim().toLowerCase().min(1).max(254).optional(),
  /** An exact type (`user.signed_in`) or a prefix ending in a dot (`user.`). */
  type: z
    .string()
    .trim()
    .regex(/^[a-z_]+(\.[a-z_]*)?$/, 'must be an event type like user.signed_in or a prefix like user.')
    .optional(),
  /** The domain of what the event is about: user, company, file, transcript... */
  targetType: z
    .string()
    .trim()
    .regex(/^[a-z_]+$/, 'must be a target type like company')
    .optional(),
  targetId: z.string().trim().min(1).max(64).optional(),
  /** Inclusive lower bound on occurredAt; a bare date means its start (UTC). */
  from: IsoInstant.optional(),
  /** Inclusive upper bound on occurredAt; a bare date means its end (UTC). */
  to: IsoInstant.optional(),
});

/** An opaque position in the log, as answered in `nextCursor`. */
const Cursor = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a nextCursor value from a previous answer');

/**
 * Two ways through the log: `page` (offset, with `total`; for small logs and existing clients) or
 * `cursor` (keyset: the entries after the one the cursor names, no count and no offset, as fast on
 * the millionth entry as on the first). Every answer carries `nextCursor`, so a walk can start
 * with a page and go on with cursors. `page` and `cursor` together are a 400. Counting is the one
 * cost that grows with the log: `withTotal=false` skips it on a page too.
 */
export const AuditQuery = AuditFilters.extend({
  page: z.coerce.number().int().min(1).max(100_000).optional(),
  pageSize: PageQuery.shape.pageSize,
  cursor: Cursor.optional(),
  /** `false`: a page without `total`/`totalPages` (null), skipping the count over the whole filter. */
  withTotal: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
}).strict();
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AUDIT_EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export const AuditExportQuery = AuditFilters.extend({
  format: z.enum(AUDIT_EXPORT_FORMATS),
}).strict();
export type AuditExportQuery = z.infer<typeof AuditExportQuery>;

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

/**
 * A page of entries, newest first. With `page` (or neither parameter): `page`, `total` and
 * `totalPages` are numbers (total and totalPages null with `withTotal=false`). With `cursor`:
 * `page`, `total` and `totalPages` are null (a keyset read never counts).
 * `nextCursor` is null when no entry follows.
 */
export const AuditPage = z.object({
  items: z.array(AuditEntryDto),
  page: z.number().int().nullable(),
  pageSize: z.number().int(),
  total: z.number().int().nullable(),
  totalPages: z.number().int().nullable(),
  nextCursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof AuditPage>;

/**
 * What a company's identity provider changed (entries whose actor is one of its SCIM tokens),
 * newest first: a company's ADMIN reads their own company's, the platform administrator any
 * company's (or all, without companyId).
 */
export const AuditProvisioningQuery = z
  .object({
    companyId: z.string().uuid().optional(),
    pageSize: z.coerce.number().int().min(1).max(100).default(20),
  })
  .strict();
export type AuditProvisioningQuery = z.infer<typeof AuditProvisioningQuery>;
export const AuditProvisioningAnswer = z.object({ items: z.array(AuditEntryDto) });
export type AuditProvisioningAnswer = z.infer<typeof AuditProvisioningAnswer>;

/**
 * Which hash chain to verify: a company's (its id), or with no companyId the platform's own
 * entries (HOST_ADMIN) or, for a company's ADMIN, their own company's.
 */
export const AuditVerifyQuery = z
  .object({
    companyId: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^\P{Cc}*$/u, 'must not contain control characters')
      .optional(),
  })
  .strict();
export type AuditVerifyQuery = z.infer<typeof AuditVerifyQuery>;

/**
 * The first link of a chain that does not hold. `position` counts the chain's entries from 1 (the
 * entry the audit page names); `seq` and `id` name the row (null when the end of the chain is what
 * is wrong). reason: `content` the entry was changed, `link` an entry before it was removed,
 * inserted or reordered, `unsealed` it carries no hash, `head` entries were cut from or added at the end.
 */
export const AuditChainBreak = z.object({
  position: z.number().int(),
  seq: z.number().int().nullable(),
  id: z.string().nullable(),
  reason: z.enum(['content', 'link', 'unsealed', 'head']),
  message: z.string(),
});
export type AuditChainBreak = z.infer<typeof AuditChainBreak>;

/** A chain as verified now: `entries` that hold, `head` the hash of the last of them (null: empty chain). */
export const AuditVerifyResult = z.object({
  ok: z.boolean(),
  companyId: z.string().nullable(),
  entries: z.number().int(),
  head: z.string().nullable(),
  brokenAt: AuditChainBreak.optional(),
});
export type AuditVerifyResult = z.infer<typeof AuditVerifyResult>;

/** An exported entry: the list's shape plus what a verifier needs (its place in the chain and the two hashes). */
export const AuditExportEntry = AuditEntryDto.extend({
  seq: z.number().int(),
  prevHash: z.string().nullable(),
  hash: z.string().nullable(),
});
export type AuditExportEntry = z.infer<typeof AuditExportEntry>;

/**
 * `GET /audit/stream`: one chain (a company's, or the platform's own without companyId) as
 * newline-delimited JSON that stays open. From `fromSeq` on (the entries already recorded first),
 * or without it only the entries recorded after the stream was opened.
 */
export const AuditStreamQuery = AuditVerifyQuery.extend({
  fromSeq: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
}).strict();
export type AuditStreamQuery = z.infer<typeof AuditStreamQuery>;
