import { isId, type EventOf } from '@earshot/contracts';
import { perContext, type Db, type ServiceContext } from '@earshot/kit';
import type { ChatConfig } from '../config';
import { keyedCompanies, questionLexemes, type BlindTerms } from '../repositories/fts';
import * as recordingsRepo from '../repositories/recordings';
import * as segmentsRepo from '../repositories/segments';
import type { Passage, SearchScope, SegmentFacts, StoredPassage } from '../repositories/segments';
import { encryptionOf, PURPOSES, type ChatEncryption, type CompanyText } from './encryption';

type SegmentText = Omit<SegmentFacts, 'blind'>;

/**
 * The search assistant's copy of transcript text, kept in step with the transcription service's
 * events: sealed (with a blind index) for a company with encryption on, plain otherwise. Reads
 * open it again, so the assistant and the models it calls get the text as it was published
 * (already redacted by the transcription service).
 */
export class TranscriptCopy {
  constructor(private readonly encryption: ChatEncryption) {}

  /** Segments with text, as the company's copy stores them. */
  private async stored(tx: Db, companyId: string, segments: readonly SegmentText[]): Promise<SegmentFacts[]> {
    const spoken = segments.filter((s) => s.text.trim());
    const text = await this.encryption.textOf(tx, companyId);
    const stored = await this.encryption.stored(
      tx,
      text,
      PURPOSES.segmentText,
      spoken.map((s) => s.text),
    );
    return spoken.map((s, i) => ({
      segmentId: s.segmentId,
      speaker: s.speaker,
      start: s.start,
      end: s.end,
      ...stored[i]!,
    }));
  }

  /**
   * A completed transcript replaces the file's earlier text; its own text follows in
   * transcript.text_published parts (events written as v2 carried it inline; v1 carried none).
   */
  async applyTranscriptCompleted(tx: Db, event: EventOf<'transcript.completed'>): Promise<void> {
    const { fileId, fileName, segments = [] } = event.data;
    if (!isId(fileId) || !isId(event.companyId)) return;
    await segmentsRepo.replaceFile(
      tx,
      event.companyId,
      fileId,
      fileName,
      await this.stored(tx, event.companyId, segments),
    );
    await recordingsRepo.completed(tx, {
      fileId,
      companyId: event.companyId,
      fileName,
      completedAt: new Date(event.occurredAt),
    });
  }

  /** One part of a completed transcript's text: added to the copy (a redelivered part adds nothing). */
  async applyTextPublished(tx: Db, event: EventOf<'transcript.text_published'>): Promise<void> {
    const { fileId, fileName, segments } = event.data;
    if (!isId(fileId) || !isId(event.companyId)) return;
    await segmentsRepo.addSegments(
      tx,
      event.companyId,
      fileId,
      fileName,
      await this.stored(tx, event.companyId, segments),
    );
  }

  async applyWordEdited(tx: Db, event: EventOf<'transcript.word_edited'>): Promise<void> {
    const { fileId, segmentId, segmentText } = event.data;
    if (!isId(fileId) || !isId(event.companyId)) return;
    const text = await this.encryption.textOf(tx, event.companyId);
    const [stored] = await this.encryption.stored(tx, text, PURPOSES.segmentText, [segmentText]);
    await segmentsRepo.updateText(tx, fileId, segmentId, stored!);
  }

  /**
   * A person edited the transcript: the copy follows (removed segments go, changed ones are
   * written over). Segments without text are not kept, as on completion.
   */
  async applySegmentsChanged(tx: Db, event: EventOf<'transcript.segments_changed'>): Promise<void> {
    const { fileId, removed, segments } = event.data;
    if (!isId(fileId) || !isId(event.companyId)) return;
    const silent = segments.filter((s) => !s.text.trim()).map((s) => s.segmentId);
    await segmentsRepo.applyChange(
      tx,
      event.companyId,
      fileId,
      [...removed, ...silent],
      await this.stored(tx, event.companyId, segments),
    );
  }

  /**
   * The segments that best match a question in the scope, opened. Plain rows are searched in
   * English; each company of the scope that has a data key also by its blind tokens of the
   * question's lexemes (a platform administrator's search without a company: every such company).
   */
  async search(db: Db, question: string, scope: SearchScope, limit: number): Promise<Passage[]> {
    if (scope.fileIds?.length === 0) return [];
    const companies = scope.companyId
      ? [scope.companyId]
      : scope.fileIds
        ? await segmentsRepo.companiesOf(db, scope.fileIds)
        : await keyedCompanies(db, null);
    const texts = await this.texts(db, companies);
    const keyed = [...texts.values()].filter((t) => t.blind());
    const lexemes = keyed.length > 0 ? await questionLexemes(db, question) : [];
    const blind = keyed.map((t) => t.terms(lexemes)).filter((t): t is BlindTerms => t !== null);
    return this.opened(db, await segmentsRepo.search(db, question, scope, limit, blind), texts);
  }

  /** A recording's whole text, segment by segment in time order, opened. */
  async ofFile(db: Db, fileId: string): Promise<Passage[]> {
    return this.opened(db, await segmentsRepo.ofFile(db, fileId));
  }

  private async texts(db: Db, companies: readonly string[]): Promise<Map<string, CompanyText>> {
    return new Map(await Promise.all(companies.map(async (c) => [c, await this.encryption.textOf(db, c)] as const)));
  }

  private async opened(
    db: Db,
    passages: readonly StoredPassage[],
    known = new Map<string, CompanyText>(),
  ): Promise<Passage[]> {
    const texts = await this.texts(
      db,
      [...new Set(passages.map((p) => p.companyId))].filter((c) => !known.has(c)),
    );
    for (const [c, t] of known) texts.set(c, t);
    return passages.map(({ companyId, ...p }) => ({
      ...p,
      text: texts.get(companyId)!.open(PURPOSES.segmentText, p.text),
    }));
  }
}

/** The transcript copy of a service context (its handlers and its readers share the key ring's cache). */
export const transcriptCopyOf = perContext((ctx: ServiceContext<ChatConfig>) => new TranscriptCopy(encryptionOf(ctx)));

/** Who uploaded the recording: in a b2c company, only they may chat about it. */
export async function applyFileUploaded(tx: Db, event: EventOf<'file.uploaded'>): Promise<void> {
  const { id, uploadedBy } = event.data;
  if (!isId(id) || !isId(event.companyId)) return;
  await recordingsRepo.uploaded(tx, { fileId: id, companyId: event.companyId, uploadedBy });
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
  await recordingsRepo.linkClient(tx, {
    fileId,
    companyId: event.companyId,
    clientId: after.clientId && isId(after.clientId) ? after.clientId : null,
  });
}

/** client.created / client.updated: only the name, to recognise it in a question. */
export async function applyClientSaved(
  tx: Db,
  event: EventOf<'client.created'> | EventOf<'client.updated'>,
): Promise<void> {
  const { id, after } = event.data;
  if (!isId(id) || !isId(event.companyId) || !after) return;
  await recordingsRepo.saveClient(tx, { id, companyId: event.companyId, name: after.name });
}

export async function applyClientDeleted(tx: Db, event: EventOf<'client.deleted'>): Promise<void> {
  if (isId(event.data.id)) await recordingsRepo.removeClient(tx, event.data.id);
}
