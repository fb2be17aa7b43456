import {
  counted,
  createStorage,
  inPages,
  onEraseRequested,
  onExportRequested,
  type PrivacyPart,
  type StorageConfig,
} from '@earshot/kit';
import type { EntryRow } from '../db/schema';
import { countEntriesAboutPerson, entriesAboutPerson } from '../repositories/privacy';

/**
 * The audit service's part of a person's export: the entries whose actor or target is
 * the person, as recorded (with their chain hashes, so the person can show them to a verifier).
 */
export const auditExportPart = (config: StorageConfig) =>
  onExportRequested('audit', createStorage(config), (tx, subject, companyId): PrivacyPart => {
    const rows = inPages((after: EntryRow | null, limit) =>
      entriesAboutPerson(tx, companyId, subject.id, { afterSeq: after?.seq ?? null, limit }),
    );
    const counts = {};
    const list = counted(counts, 'entries', rows, (row) => ({
      id: row.id,
      seq: row.seq,
      occurredAt: row.occurredAt,
      type: row.type,
      actor: row.actor,
      targetType: row.targetType,
      targetId: row.targetId,
      before: row.before,
      after: row.after,
      data: row.data,
      prevHash: row.prevHash,
      hash: row.hash,
    }));
    return { data: { entries: list }, counts };
  });

/**
 * The audit service's part of erasing a person: nothing is removed. The entries about
 * them are kept, as recorded: the log is the company's proof of what happened (a legal obligation,
 * GDPR art. 17(3)(b) and (e)), and each entry is a link of the hash chain, so removing or editing
 * one would break verification of every entry after it. The report says how many were kept;
 * retention still removes them when the company's audit retention is due.
 */
export const auditErasePart = onEraseRequested('audit', async (tx, _emit, { subject, companyId }) => ({
  kept: await countEntriesAboutPerson(tx, companyId, subject.id),
}));
