import { SYSTEM_ACTOR } from '@earshot/contracts';
import { RetentionJob, type ObjectStorage, type ServiceContext } from '@earshot/kit';
import type { FileConfig } from '../config';
import * as holdsRepo from '../repositories/holds';
import { removeStoredFile } from './events';
import { retention } from './retention-projection';

/**
 * The daily recordings retention: each company with `recordingsDays` set loses the
 * recordings uploaded before its cut-off, through the same path as a deleted transcript (row gone,
 * `file.deleted`, stored object removed), so every other service removes its copies (transcript,
 * search rows, chat and prompt copies, figures). Recordings under a hold — their own, their
 * client's, the company's — stay.
 */
export function recordingRetention(ctx: ServiceContext<FileConfig>, storage: ObjectStorage): RetentionJob {
  return new RetentionJob(ctx, retention, {
    kind: 'recordings',
    field: 'recordingsDays',
    service: 'file',
    async removeDue(tx, emit, companyId, olderThan, limit) {
      const due = await holdsRepo.lockDueFiles(
        tx,
        companyId,
        olderThan,
        await retention.heldClients(tx, companyId),
        limit,
      );
      for (const file of due) await removeStoredFile(tx, emit, file, SYSTEM_ACTOR, storage);
      return due.length;
    },
    heldDue: async (db, companyId, olderThan) =>
      holdsRepo.countHeldDue(db, companyId, olderThan, await retention.heldClients(db, companyId)),
  });
}
