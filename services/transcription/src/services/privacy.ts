import { isId } from '@earshot/contracts';
import { createStorage, onEraseRequested, onExportRequested, type PrivacyPart, type StorageConfig } from '@earshot/kit';
import { anonymiseEdits, forgetUploader, lockTranscriptsOfPerson, transcriptsOfPerson } from '../repositories/privacy';
import { remove } from '../repositories/transcripts';
import { unlinkClient } from './clients';
import { legalHolds } from './holds';
import type { TranscriptWords } from './words-encryption';

/**
 * The transcription service's part of a person's export (issue 25): the transcripts of the
 * recordings a user uploaded, or of a client's calls, as stored (redacted where the company
 * redacts), with their speakers and words.
 */
export const transcriptionExportPart = (config: StorageConfig, words: TranscriptWords) => onExportRequested('transcription', createStorage(config), async (tx, subject, companyId): Promise<PrivacyPart> => {
  // A person without a company (a platform administrator) has no recordings.
  const stored = companyId ? await transcriptsOfPerson(tx, companyId, subject.kind === 'user' ? { uploadedBy: subject.id } : { clientId: subject.id }) : [];
  // Sealed words (encryption at rest) are opened: the export is the person's data, readable.
  const rows = await Promise.all(stored.map((row) => words.openRow(tx, row)));
  return {
    data: {
      transcripts: rows.map((row) => ({
        id: row.id, fileId: row.fileId, originalName: row.originalName, uploadedBy: row.uploadedBy, clientId: row.clientId, uploadedAt: row.uploadedAt,
        language: row.language, duration: row.duration, engine: row.engine, completedAt: row.completedAt, speakers: row.speakers, segments: row.segments,
      })),
    },
    counts: { transcripts: rows.length },
  };
});

/**
 * The transcription service's part of erasing a person (issue 25), in their company only. Their
 * recordings deleted: each transcript goes (with its job, search rows and edits) as when its file
 * is deleted, the file service's file.deleted telling the other copies; a recording a hold reached
 * since the request stays, counted as `held`. Kept: a user's transcripts lose their uploader, a
 * client's their link (transcript.client_linked to null, which the other copies follow). A user's
 * edits keep their change but no longer name who made it.
 */
export const transcriptionErasePart = onEraseRequested('transcription', async (tx, emit, { subject, companyId, recordings, actor }): Promise<Record<string, number>> => {
  if (!companyId || !isId(subject.id)) return {};
  const person = subject.kind === 'user' ? { uploadedBy: subject.id } : { clientId: subject.id };
  const counts: Record<string, number> = {};
  if (recordings === 'delete') {
    counts.transcriptsDeleted = 0;
    counts.held = 0;
    for (const row of await lockTranscriptsOfPerson(tx, companyId, person)) {
      if (await legalHolds.holdOn(tx, row)) counts.held += 1;
      else if (await remove(tx, row.fileId)) counts.transcriptsDeleted += 1;
    }
  } else if (subject.kind === 'user') {
    counts.uploadsKept = await forgetUploader(tx, companyId, subject.id);
  } else {
    counts.clientLinksCleared = await unlinkClient(tx, emit, subject.id, actor);
  }
  if (subject.kind === 'user') counts.editsAnonymised = await anonymiseEdits(tx, companyId, subject.id);
  return counts;
});
