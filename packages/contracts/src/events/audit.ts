import { z } from 'zod';
import { defineEvent } from './envelope';

/** The topic the audit service publishes its chains on (and which its own log does not read back). */
export const AUDIT_TOPIC = 'earshot.audit';

/** A SHA-256 in lower-case hex, as the chain writes it. */
const ChainHash = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * An audit entry exactly as its hash covers it, version 1 of the canonical form (services/audit's
 * README, "Hash chain"): SHA-256 of this object written with its keys sorted at every depth and no
 * whitespace is the entry's hash. Strict: a member beyond it would be outside every hash.
 */
export const AuditChainedEntry = z
  .object({
    v: z.literal(1),
    prevHash: ChainHash,
    id: z.string(),
    occurredAt: z.string(),
    type: z.string(),
    version: z.number().int(),
    companyId: z.string().nullable(),
    actor: z
      .object({
        type: z.string(),
        id: z.string().nullable(),
        email: z.string().nullable(),
        role: z.string().nullable(),
        ip: z.string().nullable(),
      })
      .strict(),
    target: z.object({ type: z.string(), id: z.string().nullable() }).strict(),
    before: z.unknown(),
    after: z.unknown(),
    data: z.unknown(),
  })
  .strict();
export type AuditChainedEntry = z.infer<typeof AuditChainedEntry>;

/** The audit trail as a stream for outside consumers (a SIEM, a compliance archive). */
export const auditEvents = [
  defineEvent({
    type: 'audit.entry_recorded',
    version: 1,
    topic: AUDIT_TOPIC,
    description:
      "An entry was appended to a hash chain of the audit log (a company's, keyed by its id, or the platform's, key `platform`), published after the append committed. `seq` orders a chain (it grows, with gaps: it is shared by every chain); `prevHash` is the hash of the chain entry before it (64 zeros for a chain's first entry) and `hash` the SHA-256 of `entry` in canonical JSON, so a consumer proves entry by entry that nothing was dropped, reordered or altered (`npm run audit -- follow`).",
    data: z.object({
      companyId: z.string().nullable(),
      seq: z.number().int().positive(),
      prevHash: ChainHash,
      hash: ChainHash,
      entry: AuditChainedEntry,
    }),
  }),
  defineEvent({
    type: 'audit.anchor_recorded',
    version: 1,
    topic: AUDIT_TOPIC,
    description:
      "The day's anchor of the audit log: every chain's length and head hash (`chain` null: the platform's), written once per UTC day. Kept apart from the database, it shows a chain rewritten after that day, hashes recomputed included.",
    data: z.object({
      day: z.iso.date(),
      at: z.iso.datetime(),
      heads: z.array(
        z.object({ chain: z.string().nullable(), entries: z.number().int().nonnegative(), head: ChainHash.nullable() }),
      ),
    }),
  }),
] as const;
