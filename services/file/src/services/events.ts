import { SYSTEM_ACTOR, isId, type Actor, type EventOf } from '@earshot/contracts';
import type { Db, Emit, ObjectStorage } from '@earshot/kit';
import * as filesRepo from '../repositories/files';
import * as companiesRepo from '../repositories/companies';
import type { FileRow } from '../db/schema';
import { retention } from './retention-projection';

/** Ids in events are checked before they reach a uuid column: a malformed one is ignored, not retried forever. */
const companyOf = (event: { companyId: string | null }): string | null =>
  isId(event.companyId) ? event.companyId : null;

/** Keeps the quota projection: company.created/updated set maxStorage, company.deleted drops it. */
export async function applyCompanyEvent(
  tx: Db,
  event: EventOf<'company.created' | 'company.updated' | 'company.deleted'>,
): Promise<void> {
  if (!isId(event.data.id)) return;
  if (event.type === 'company.deleted') return companiesRepo.removeCompany(tx, event.data.id);
  return companiesRepo.upsertCompany(tx, event.data.id, event.data.after?.maxStorage ?? null);
}

/** Mirrors the transcription status of a file (the list shows it); a failure keeps its reason. */
export async function applyTranscriptStatus(tx: Db, event: EventOf<'transcript.status_changed'>): Promise<void> {
  const { fileId, status, reason } = event.data;
  if (!isId(fileId)) return;
  const error = status === 'failed' ? (reason ?? 'Transcription failed') : null;
  await filesRepo.setTranscriptionStatus(tx, fileId, companyOf(event), status, error);
}

/** Follows the transcription service's link of a file to a client (the files list filters by it). */
export async function applyClientLinked(tx: Db, event: EventOf<'transcript.client_linked'>): Promise<void> {
  const { fileId, after } = event.data;
  if (!isId(fileId) || (after.clientId !== null && !isId(after.clientId))) return;
  await filesRepo.setClient(tx, fileId, companyOf(event), after.clientId);
}

/** Redaction silenced the stored audio and re-encoded it: downloads and ranges are served by the new size. */
export async function applyAudioRedacted(tx: Db, event: EventOf<'transcript.audio_redacted'>): Promise<void> {
  if (isId(event.data.fileId)) await filesRepo.setSize(tx, event.data.fileId, companyOf(event), event.data.size);
}

/** Keeps the names of a file's transcript's speakers (renames included), for the list's speaker filter. */
export async function applySpeakersChanged(tx: Db, event: EventOf<'transcript.speakers_changed'>): Promise<void> {
  const { fileId, speakers } = event.data;
  if (!isId(fileId)) return;
  await filesRepo.setSpeakers(
    tx,
    fileId,
    companyOf(event),
    speakers.map((speaker) => speaker.name),
  );
}

/**
 * Removes a file the way every deletion does: the row goes, file.deleted tells every other service
 * to drop its copies, and the stored audio is removed before the transaction commits (so a failed
 * removal is retried with the event or the next run; removing a missing object is a no-op).
 */
export async function removeStoredFile(
  tx: Db,
  emit: Emit,
  file: Pick<FileRow, 'id' | 'companyId'>,
  actor: Actor,
  storage: ObjectStorage,
): Promise<void> {
  const row = await filesRepo.deleteFile(tx, file.id, file.companyId);
  if (!row) return;
  emit({ type: 'file.deleted', companyId: row.companyId, actor, data: { id: row.id, storageKey: row.storageKey } });
  await storage.delete(row.storageKey);
}

/**
 * A deleted transcript takes its file with it. An unknown file is already gone: nothing to do. A
 * file under a legal hold stays (the transcription service refuses to delete a held recording's
 * transcript; this covers a hold that reached it later than the request).
 */
export async function applyTranscriptDeleted(
  tx: Db,
  emit: Emit,
  event: EventOf<'transcript.deleted'>,
  storage: ObjectStorage,
): Promise<void> {
  if (!isId(event.data.fileId)) return;
  const row = await filesRepo.lockFile(tx, event.data.fileId, companyOf(event), null);
  if (!row || row.held || (await retention.holdOn(tx, { companyId: row.companyId, clientId: row.clientId }))) return;
  await removeStoredFile(tx, emit, row, event.actor ?? SYSTEM_ACTOR, storage);
}
