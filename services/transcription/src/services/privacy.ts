import { isId } from '@earshot/contracts';
import {
  counted,
  createStorage,
  inPages,
  onEraseRequested,
  onExportRequested,
  RawJson,
  type Db,
  type PageEnd,
  type PrivacyPart,
  type StorageConfig,
} from '@earshot/kit';
import {
  anonymiseEdits,
  forgetUnlinkedClient,
  forgetUploader,
  lockTranscriptsOfPerson,
  plainSegmentsOf,
  segmentsTextOf,
  transcriptsOfPerson,
} from '../repositories/privacy';
import { remove } from '../repositories/transcripts';
import { unlinkClient } from './clients';
import { legalHolds } from './holds';
import type { TranscriptWords } from './words-encryption';

/** A plain transcript's segments as the export writes them: each its JSON text, a page at a time. */
async function* segmentsOf(tx: Db, fileId: string): AsyncGenerator<RawJson> {
  for await (const page of plainSegmentsOf(tx, fileId)) for (const segment of page) yield new RawJson(segment);
}

/**
 * The transcription service's part of a person's export: the transcripts of the
 * recordings a user uploaded, or of a client's calls, as stored (redacted where the company
 * redacts), with their speakers and words. A transcript's segments may be a hundred thousand: they
 * are read as their JSON text and written as it is, never parsed here: a page at a time, or in one
 * piece when small or sealed (opened one transcript at a time).
 */
export const transcriptionExportPart = (config: StorageConfig, words: TranscriptWords) =>
  onExportRequested('transcription', createStorage(config), (tx, subject, companyId): PrivacyPart => {
    const person = subject.kind === 'user' ? { uploadedBy: subject.id } : { clientId: subject.id };
    // A person without a company (a platform administrator) has no recordings.
    const rows = companyId
      ? inPages((after: PageEnd | null, limit) => transcriptsOfPerson(tx, companyId, person, { after, limit }))
      : [];
    const counts = {};
    const transcripts = counted(
      counts,
      'transcripts',
      rows,
      async ({ companyId: owner, whole, sortKey: _, ...row }) => {
        if (!whole) return { ...row, segments: segmentsOf(tx, row.fileId) };
        // Sealed words (encryption at rest) are opened: the export is the person's data, readable.
        const stored = await segmentsTextOf(tx, row.fileId);
        const text = await words.segmentsText(tx, { companyId: owner, fileId: row.fileId, segments: stored });
        return { ...row, segments: new RawJson(text) };
      },
    );
    return { data: { transcripts }, counts };
  });

/**
 * The transcription service's part of erasing a person, in their company only. Their
 * recordings deleted: each transcript goes (with its job, search rows and edits) the way a
 * transcript's delete does, its transcript.deleted taking the file with it in the file service
 * (which may no longer see the call as the client's: see below); a recording a hold reached since
 * the request stays, counted as `held`. Kept: a user's transcripts lose their uploader, a client's
 * their link (transcript.client_linked to null, which the other copies follow). A user's edits
 * keep their change but no longer name who made it.
 *
 * A client's erasure deletes the client too (tenant, client.deleted), on another topic than this
 * request: when client.deleted arrives first, the calls are already unlinked here and in the file
 * service. They still carry the deleted client's id (unlinked_client_id), so they are found either
 * way, and transcript.deleted reaches the file service's recording whichever link it holds.
 */
export const transcriptionErasePart = onEraseRequested(
  'transcription',
  async (tx, emit, { subject, companyId, recordings, actor }): Promise<Record<string, number>> => {
    if (!companyId || !isId(subject.id)) return {};
    const person = subject.kind === 'user' ? { uploadedBy: subject.id } : { clientId: subject.id };
    const counts: Record<string, number> = {};
    if (recordings === 'delete') {
      counts.transcriptsDeleted = 0;
      counts.held = 0;
      for (const row of await lockTranscriptsOfPerson(tx, companyId, person)) {
        // A call unlinked by its client's deletion is still covered by a hold on that client.
        if (await legalHolds.holdOn(tx, { ...row, clientId: row.clientId ?? row.unlinkedClientId })) counts.held += 1;
        else if (await remove(tx, row.fileId)) {
          emit({
            type: 'transcript.deleted',
            companyId: row.companyId,
            actor,
            data: { id: row.id, fileId: row.fileId },
          });
          counts.transcriptsDeleted += 1;
        }
      }
    } else if (subject.kind === 'user') {
      counts.uploadsKept = await forgetUploader(tx, companyId, subject.id);
    } else {
      // Whether or not client.deleted came first, no kept call names the erased client afterwards.
      counts.clientLinksCleared =
        (await unlinkClient(tx, emit, subject.id, actor, false)) +
        (await forgetUnlinkedClient(tx, companyId, subject.id));
    }
    if (subject.kind === 'user') counts.editsAnonymised = await anonymiseEdits(tx, companyId, subject.id);
    return counts;
  },
);
