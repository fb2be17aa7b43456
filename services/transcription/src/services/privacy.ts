import { createStorage, onExportRequested, type PrivacyPart, type StorageConfig } from '@earshot/kit';
import { transcriptsOfPerson } from '../repositories/privacy';
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
