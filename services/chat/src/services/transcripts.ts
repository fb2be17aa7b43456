import { TranscriptSegmentFact, isId, type Envelope } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import * as segmentsRepo from '../repositories/segments';


/**
 * Keeps the search assistant's copy of transcript text in step with the transcription service.
 * Version 1 events carried no text: there is nothing to copy from them.
 */
export async function applyTranscriptEvent(tx: Db, envelope: Envelope): Promise<void> {
  const data = envelope.data as Record<string, unknown>;
  if (!isId(data.fileId)) return;
  switch (envelope.type) {
    case 'transcript.completed': {
      const segments = TranscriptSegmentFact.array().safeParse(data.segments);
      if (envelope.version < 2 || !isId(envelope.companyId) || !segments.success) return;
      await segmentsRepo.replaceFile(tx, envelope.companyId, data.fileId, String(data.fileName ?? ''), segments.data.filter((s) => s.text.trim()));
      return;
    }
    case 'transcript.word_edited':
      if (envelope.version < 2 || typeof data.segmentId !== 'string' || typeof data.segmentText !== 'string') return;
      await segmentsRepo.updateText(tx, data.fileId, data.segmentId, data.segmentText);
      return;
    case 'transcript.deleted':
      await segmentsRepo.removeFile(tx, data.fileId);
  }
}

/** file.deleted: a file removed without its transcript being deleted first takes its text along. */
export async function applyFileDeleted(tx: Db, envelope: Envelope): Promise<void> {
  const data = envelope.data as { id?: unknown };
  if (isId(data.id)) await segmentsRepo.removeFile(tx, data.id);
}
