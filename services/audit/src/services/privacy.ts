import { createStorage, onExportRequested, type PrivacyPart, type StorageConfig } from '@earshot/kit';
import { entriesAboutPerson } from '../repositories/privacy';

/**
 * The audit service's part of a person's export (issue 25): the entries whose actor or target is
 * the person, as recorded (with their chain hashes, so the person can show them to a verifier).
 */
export const auditExportPart = (config: StorageConfig) => onExportRequested('audit', createStorage(config), async (tx, subject, companyId): Promise<PrivacyPart> => {
  const rows = await entriesAboutPerson(tx, companyId, subject.id);
  return {
    data: {
      entries: rows.map((row) => ({
        id: row.id, seq: row.seq, occurredAt: row.occurredAt, type: row.type, actor: row.actor, targetType: row.targetType, targetId: row.targetId,
        before: row.before, after: row.after, data: row.data, prevHash: row.prevHash, hash: row.hash,
      })),
    },
    counts: { entries: rows.length },
  };
});
