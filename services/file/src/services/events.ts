import { SYSTEM_ACTOR, isId, type EventOf } from '@earshot/contracts';
import type { Db, Emit, ObjectStorage } from '@earshot/kit';
import * as filesRepo from '../repositories/files';
import * as companiesRepo from '../repositories/companies';

/** Ids in events are checked before they reach a uuid column: a malformed one is ignored, not retried forever. */
const companyOf = (event: { companyId: string | null }): string | null => (isId(event.companyId) ? event.companyId : null);

/** Keeps the quota projection: company.created/updated set maxStorage, company.deleted drops it. */
export async function applyCompanyEvent(tx: Db, event: EventOf<'company.created' | 'company.updated' | 'company.deleted'>): Promise<void> {
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

/** Redaction silenced the stored audio (issue 25) and re-encoded it: downloads and ranges are served by the new size. */
export async function applyAudioRedacted(tx: Db, event: EventOf<'transcript.audio_redacted'>): Promise<void> {
  if (isId(event.data.fileId)) await filesRepo.setSize(tx, event.data.fileId, companyOf(event), event.data.size);
}

/** Keeps the names of a file's transcript's speakers (renames included), for the list's speaker filter. */
export async function applySpeakersChanged(tx: Db, event: EventOf<'transcript.speakers_changed'>): Promise<void> {
  const { fileId, speakers } = event.data;
  if (!isId(fileId)) return;
  await filesRepo.setSpeakers(tx, fileId, companyOf(event), speakers.map((speaker) => speaker.name));
}

/**
 * A deleted transcript takes its file with it: the row goes, file.deleted is emitted, and the
 * stored audio is removed before the transaction commits (so a failed removal is retried with the
 * event; removing a missing object is a no-op). An unknown file is already gone: nothing to do.
 */
export async function applyTranscriptDeleted(tx: Db, emit: Emit, event: EventOf<'transcript.deleted'>, storage: ObjectStorage): Promise<void> {
  if (!isId(event.data.fileId)) return;
  const row = await filesRepo.deleteFile(tx, event.data.fileId, companyOf(event));
  if (!row) return;
  emit({
    type: 'file.deleted',
    companyId: row.companyId,
    actor: event.actor ?? SYSTEM_ACTOR,
    data: { id: row.id, storageKey: row.storageKey },
  });
  await storage.delete(row.storageKey);
}
