import { isId, type EventOf } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
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

export async function applyTranscriptDeleted(tx: Db, event: EventOf<'transcript.deleted'>): Promise<void> {
  if (isId(event.data.fileId)) await segmentsRepo.removeFile(tx, event.data.fileId);
}

/** file.deleted: a file removed without its transcript being deleted first takes its text along. */
export async function applyFileDeleted(tx: Db, event: EventOf<'file.deleted'>): Promise<void> {
  if (isId(event.data.id)) await segmentsRepo.removeFile(tx, event.data.id);
}
