import { extname } from 'node:path';
import { onExportRequested, type EncryptingStorage, type ObjectStorage } from '@earshot/kit';
import type { FileRow } from '../db/schema';
import { filesOfPerson } from '../repositories/privacy';

/** The audio's name in the ZIP: its id, with the extension it was uploaded with when that is a plain one. */
function audioName(row: FileRow): string {
  const ext = extname(row.originalName).toLowerCase();
  return `audio/${row.id}${/^\.[a-z0-9]{1,8}$/.test(ext) ? ext : ''}`;
}

/**
 * The file service's part of a person's export (issue 25): the recordings a user uploaded, or the
 * calls linked to a client, in the person's company, with their audio (the stored object, so
 * redacted audio stays redacted; decrypted, and copied next to the part, when encrypted at rest).
 */
export const fileExportPart = (storage: ObjectStorage, plain: EncryptingStorage) => onExportRequested('file', storage, async (tx, subject, companyId) => {
  // A person without a company (a platform administrator) has uploaded into none.
  const rows = companyId ? await filesOfPerson(tx, companyId, subject.kind === 'user' ? { uploadedBy: subject.id } : { clientId: subject.id }) : [];
  return {
    data: {
      recordings: rows.map((row) => ({
        id: row.id, originalName: row.originalName, mimeType: row.mimeType, size: row.size, uploadedAt: row.uploadedAt,
        uploadedBy: row.uploadedBy, clientId: row.clientId, language: row.language, speakers: row.speakers, transcriptionStatus: row.transcriptionStatus,
        audio: audioName(row),
      })),
    },
    counts: { recordings: rows.length },
    // Audio encrypted at rest is read through the company's keys and goes into the ZIP as plain audio.
    objects: await Promise.all(rows.map(async (row) => ({ name: audioName(row), key: row.storageKey, encrypted: await plain.isEncrypted(row.storageKey) }))),
  };
}, plain);
