import { isId, type EventOf } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import * as recordingsRepo from '../repositories/recordings';
import * as segmentsRepo from '../repositories/segments';

/**
 * Keeps the search assistant's copy of transcript text in step with the transcription service.
 * A completed transcript replaces the file's earlier text; its own text follows in
 * transcript.text_published parts (events written as v2 carried it inline; v1 carried none).
 */
export async function applyTranscriptCompleted(tx: Db, event: EventOf<'transcript.completed'>): Promise<void> {
  const { fileId, fileName, segments = [] } = event.data;
  if (!isId(fileId) || !isId(event.companyId)) return;
  await segmentsRepo.replaceFile(tx, event.companyId, fileId, fileName, segments.filter((s) => s.text.trim()));
  await recordingsRepo.completed(tx, { fileId, companyId: event.companyId, fileName, completedAt: new Date(event.occurredAt) });
}

/** Who uploaded the recording: in a b2c company, only they may chat about it. */
export async function applyFileUploaded(tx: Db, event: EventOf<'file.uploaded'>): Promise<void> {
  const { id, uploadedBy } = event.data;
  if (!isId(id) || !isId(event.companyId)) return;
  await recordingsRepo.uploaded(tx, { fileId: id, companyId: event.companyId, uploadedBy });
}

/** One part of a completed transcript's text: added to the copy (a redelivered part adds nothing). */
export async function applyTextPublished(tx: Db, event: EventOf<'transcript.text_published'>): Promise<void> {
  const { fileId, fileName, segments } = event.data;
  if (!isId(fileId) || !isId(event.companyId)) return;
  await segmentsRepo.addSegments(tx, event.companyId, fileId, fileName, segments.filter((s) => s.text.trim()));
}

export async function applyWordEdited(tx: Db, event: EventOf<'transcript.word_edited'>): Promise<void> {
  const { fileId, segmentId, segmentText } = event.data;
  if (isId(fileId)) await segmentsRepo.updateText(tx, fileId, segmentId, segmentText);
}

/** A person edited the transcript: the copy follows (removed segments go, changed ones are written over). */
export async function applySegmentsChanged(tx: Db, event: EventOf<'transcript.segments_changed'>): Promise<void> {
  const { fileId, removed, segments } = event.data;
  if (!isId(fileId) || !isId(event.companyId)) return;
  await segmentsRepo.applyChange(tx, event.companyId, fileId, removed, segments);
}

async function removeRecording(tx: Db, fileId: string): Promise<void> {
  if (!isId(fileId)) return;
  await segmentsRepo.removeFile(tx, fileId);
  await recordingsRepo.remove(tx, fileId);
}

export async function applyTranscriptDeleted(tx: Db, event: EventOf<'transcript.deleted'>): Promise<void> {
  await removeRecording(tx, event.data.fileId);
}

/** file.deleted: a file removed without its transcript being deleted first takes its text along. */
export async function applyFileDeleted(tx: Db, event: EventOf<'file.deleted'>): Promise<void> {
  await removeRecording(tx, event.data.id);
}

/** Which client a recording is about, so that a question naming the client finds it. */
export async function applyClientLinked(tx: Db, event: EventOf<'transcript.client_linked'>): Promise<void> {
  const { fileId, after } = event.data;
  if (!isId(fileId) || !isId(event.companyId)) return;
  await recordingsRepo.linkClient(tx, { fileId, companyId: event.companyId, clientId: after.clientId && isId(after.clientId) ? after.clientId : null });
}

/** client.created / client.updated: only the name, to recognise it in a question. */
export async function applyClientSaved(tx: Db, event: EventOf<'client.created'> | EventOf<'client.updated'>): Promise<void> {
  const { id, after } = event.data;
  if (!isId(id) || !isId(event.companyId) || !after) return;
  await recordingsRepo.saveClient(tx, { id, companyId: event.companyId, name: after.name });
}

export async function applyClientDeleted(tx: Db, event: EventOf<'client.deleted'>): Promise<void> {
  if (isId(event.data.id)) await recordingsRepo.removeClient(tx, event.data.id);
}
