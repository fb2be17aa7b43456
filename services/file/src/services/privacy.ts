import { extname } from 'node:path';
import { isId } from '@earshot/contracts';
import {
  counted,
  inPages,
  onEraseRequested,
  onExportRequested,
  type EncryptingStorage,
  type ObjectStorage,
  type PageEnd,
  type PrivacyPart,
} from '@earshot/kit';
import type { FileRow } from '../db/schema';
import { filesOfPerson, forgetPerson, lockFilesOfPerson } from '../repositories/privacy';
import { removeStoredFile } from './events';
import { retention } from './retention-projection';

/** The audio's name in the ZIP: its id, with the extension it was uploaded with when that is a plain one. */
function audioName(row: FileRow): string {
  const ext = extname(row.originalName).toLowerCase();
  return `audio/${row.id}${/^\.[a-z0-9]{1,8}$/.test(ext) ? ext : ''}`;
}

/**
 * The file service's part of a person's export: the recordings a user uploaded, or the
 * calls linked to a client, in the person's company, with their audio (the stored object, so
 * redacted audio stays redacted; decrypted, and copied next to the part, when encrypted at rest).
 */
export const fileExportPart = (storage: ObjectStorage, plain: EncryptingStorage) =>
  onExportRequested(
    'file',
    storage,
    (tx, subject, companyId): PrivacyPart => {
      const person = subject.kind === 'user' ? { uploadedBy: subject.id } : { clientId: subject.id };
      // A person without a company (a platform administrator) has uploaded into none.
      const rows = companyId
        ? inPages((after: PageEnd | null, limit) => filesOfPerson(tx, companyId, person, { after, limit }))
        : [];
      const counts = {};
      const objects: NonNullable<PrivacyPart['objects']> = [];
      const recordings = counted(counts, 'recordings', rows, async (row) => {
        // Audio encrypted at rest is read through the company's keys and goes into the ZIP as plain audio.
        objects.push({ name: audioName(row), key: row.storageKey, encrypted: await plain.isEncrypted(row.storageKey) });
        return {
          id: row.id,
          originalName: row.originalName,
          mimeType: row.mimeType,
          size: row.size,
          uploadedAt: row.uploadedAt,
          uploadedBy: row.uploadedBy,
          clientId: row.clientId,
          language: row.language,
          speakers: row.speakers,
          transcriptionStatus: row.transcriptionStatus,
          audio: audioName(row),
        };
      });
      return { data: { recordings }, counts, objects };
    },
    plain,
  );

/**
 * The file service's part of erasing a person, in their company only. Recordings
 * deleted: each goes the way every deletion does (row, file.deleted for every other service's
 * copies, stored audio); one a hold reached after the request was accepted stays, counted as
 * `held`. Kept: the uploader (a user) or the client link (a client contact) is cleared.
 */
export const fileErasePart = (storage: ObjectStorage) =>
  onEraseRequested(
    'file',
    async (tx, emit, { subject, companyId, recordings, actor }): Promise<Record<string, number>> => {
      if (!companyId || !isId(subject.id)) return {};
      const person = subject.kind === 'user' ? { uploadedBy: subject.id } : { clientId: subject.id };
      if (recordings === 'keep') return { recordingsKept: await forgetPerson(tx, companyId, person) };
      let deleted = 0;
      let held = 0;
      for (const row of await lockFilesOfPerson(tx, companyId, person)) {
        if (row.held || (await retention.holdOn(tx, { companyId, clientId: row.clientId }))) held += 1;
        else {
          await removeStoredFile(tx, emit, row, actor, storage);
          deleted += 1;
        }
      }
      return { recordingsDeleted: deleted, held };
    },
  );
