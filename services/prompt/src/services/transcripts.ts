import { isId, type EventOf, type TranscriptSegmentFact } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import { autoPatterns } from '../repositories/patterns';
import { runnableVersions } from '../repositories/prompts';
import * as runsRepo from '../repositories/runs';
import * as repo from '../repositories/transcripts';
import type { SegmentRow, TranscriptRow } from '../db/schema';
import type { PromptEncryption } from './encryption';
import { callMetrics } from './metrics';

/**
 * This service's copy of what it analyses, kept from the transcription, file and tenant events
 * (it never reads their tables): files with their company, name, client and date; the text of
 * each completed transcript (sealed for a company with encryption on); client names and company
 * languages for the prompt variables.
 */

/** Segments with their text as the company's copy stores it (empty text stays empty: an edit that removes a segment). */
async function sealed(
  tx: Db,
  encryption: PromptEncryption,
  companyId: string,
  segments: readonly TranscriptSegmentFact[],
): Promise<TranscriptSegmentFact[]> {
  const sealer = await encryption.sealerOf(tx, companyId);
  return segments.map((s) => (s.text.trim() ? { ...s, text: sealer.seal(s.text) } : s));
}

/** A transcript's segments in time order, their text opened: what metrics and analyses read. */
export async function openedSegments(
  db: Db,
  encryption: PromptEncryption,
  file: { companyId: string; fileId: string },
): Promise<SegmentRow[]> {
  const sealer = await encryption.sealerOf(db, file.companyId);
  return (await repo.segmentsOf(db, file.fileId)).map((s) => ({ ...s, text: sealer.open(s.text) }));
}

export async function applyFileUploaded(tx: Db, event: EventOf<'file.uploaded'>): Promise<void> {
  const { id, originalName, clientId, uploadedBy } = event.data;
  if (!isId(id) || !isId(event.companyId)) return;
  await repo.upsertFile(tx, {
    fileId: id,
    companyId: event.companyId,
    fileName: originalName,
    clientId: isId(clientId) ? clientId : null,
    recordedAt: new Date(event.occurredAt),
    uploadedBy,
  });
}

/**
 * Patterns that run by themselves on this file now: every completed transcript of the company,
 * and every recording linked to a client. One run per prompt the company may run; a redelivered
 * event makes none (source event and prompt are unique).
 */
async function autoRuns(
  tx: Db,
  event: { id: string; companyId: string },
  fileId: string,
  kinds: ('company_transcripts' | 'client_recordings')[],
): Promise<number> {
  const rows = [];
  for (const kind of kinds) {
    for (const pattern of await autoPatterns(tx, event.companyId, kind)) {
      const versions = await runnableVersions(tx, pattern.promptIds, { companyId: event.companyId, userId: null });
      for (const promptId of pattern.promptIds) {
        const version = versions.get(promptId);
        if (version === undefined) continue;
        rows.push({
          companyId: event.companyId,
          fileId,
          promptId,
          promptVersion: version,
          patternId: pattern.id,
          status: 'pending' as const,
          sourceEventId: event.id,
        });
      }
    }
  }
  return (await runsRepo.insertRuns(tx, rows)).length;
}

/** Call analytics of a whole text, kept with the transcript (the metrics route reads them as they are). */
async function refreshMetrics(tx: Db, encryption: PromptEncryption, file: TranscriptRow): Promise<void> {
  await repo.saveMetrics(tx, file.fileId, callMetrics(await openedSegments(tx, encryption, file), file.duration));
}

export async function applyTranscriptCompleted(
  tx: Db,
  event: EventOf<'transcript.completed'>,
  encryption: PromptEncryption,
): Promise<void> {
  const { id, fileId, fileName, duration, parts, segments = [] } = event.data;
  const companyId = event.companyId;
  if (!isId(fileId) || !isId(companyId) || !isId(id)) return;
  await repo.completeTranscript(tx, {
    fileId,
    companyId,
    transcriptId: id,
    fileName,
    duration,
    parts,
    completedAt: new Date(event.occurredAt),
  });
  await repo.addSegments(tx, fileId, await sealed(tx, encryption, companyId, segments));
  const file = await repo.findFile(tx, fileId, companyId);
  if (file && repo.isReady(file)) await refreshMetrics(tx, encryption, file);
  await autoRuns(
    tx,
    { id: event.id, companyId },
    fileId,
    file?.clientId ? ['company_transcripts', 'client_recordings'] : ['company_transcripts'],
  );
}

export async function applyTextPublished(
  tx: Db,
  event: EventOf<'transcript.text_published'>,
  encryption: PromptEncryption,
): Promise<void> {
  const { id, fileId, part, segments } = event.data;
  if (!isId(fileId) || !isId(id) || !isId(event.companyId)) return;
  const whole = await repo.addPart(tx, fileId, id, part, await sealed(tx, encryption, event.companyId, segments));
  if (whole) await refreshMetrics(tx, encryption, whole);
}

/** A person edited the transcript: the copy follows, then the call analytics are computed again (once the text is whole). */
async function applyEdit(
  tx: Db,
  encryption: PromptEncryption,
  fileId: string,
  change: () => Promise<void>,
): Promise<void> {
  await change();
  const file = await repo.findFile(tx, fileId, null);
  if (file && repo.isReady(file)) await refreshMetrics(tx, encryption, file);
}

export async function applyWordEdited(
  tx: Db,
  event: EventOf<'transcript.word_edited'>,
  encryption: PromptEncryption,
): Promise<void> {
  const { fileId, segmentId, segmentText } = event.data;
  if (!isId(fileId) || !isId(event.companyId)) return;
  const sealer = await encryption.sealerOf(tx, event.companyId);
  await applyEdit(tx, encryption, fileId, () =>
    repo.updateSegmentText(tx, fileId, segmentId, sealer.seal(segmentText)),
  );
}

export async function applySegmentsChanged(
  tx: Db,
  event: EventOf<'transcript.segments_changed'>,
  encryption: PromptEncryption,
): Promise<void> {
  const { fileId, removed, segments } = event.data;
  if (!isId(fileId) || !isId(event.companyId)) return;
  const stored = await sealed(tx, encryption, event.companyId, segments);
  await applyEdit(tx, encryption, fileId, () => repo.applySegmentChanges(tx, fileId, removed, stored));
}

/** A recording newly linked to a client runs the client patterns, once its transcript is there. */
export async function applyClientLinked(tx: Db, event: EventOf<'transcript.client_linked'>): Promise<void> {
  const { fileId, before, after } = event.data;
  const companyId = event.companyId;
  if (!isId(fileId) || !isId(companyId)) return;
  const file = await repo.linkClient(tx, fileId, isId(after.clientId) ? after.clientId : null);
  if (file?.completedAt && after.clientId && after.clientId !== before.clientId) {
    await autoRuns(tx, { id: event.id, companyId }, fileId, ['client_recordings']);
  }
}

/** The transcript or the file is gone: its text and its analyses go too. */
export async function applyRemoved(tx: Db, fileId: string): Promise<void> {
  if (!isId(fileId)) return;
  await repo.removeFile(tx, fileId);
  await runsRepo.deleteRunsOfFile(tx, fileId);
}

export async function applyClient(
  tx: Db,
  event: EventOf<'client.created' | 'client.updated' | 'client.deleted'>,
): Promise<void> {
  const state = event.data.after ?? event.data.before;
  if (!state || !isId(event.data.id) || !isId(event.companyId)) return;
  await repo.saveClient(tx, {
    id: event.data.id,
    companyId: event.companyId,
    name: state.name,
    deleted: event.type === 'client.deleted',
    updatedAt: new Date(event.occurredAt),
  });
}

export async function applyCompany(tx: Db, event: EventOf<'company.created' | 'company.updated'>): Promise<void> {
  const state = event.data.after;
  if (state && isId(event.data.id))
    await repo.saveCompanyLanguage(tx, event.data.id, state.language ?? null, new Date(event.occurredAt));
}
