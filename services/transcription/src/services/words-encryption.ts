import { speakerName, type SpeakerInfo, type SpeakerSegment } from '@earshot/contracts';
import {
  BlindIndex,
  CompanyKeyRing,
  isSealedEnvelope,
  KeyUnavailableError,
  masterKeysFrom,
  openJson,
  openText,
  perContext,
  sealedEnvelope,
  sealJson,
  sealText,
  encryptPendingCompanies,
  startEncryptionPass,
  type BaseConfig,
  type Db,
  type EncryptionConfig,
  type EncryptionProgress,
  type FieldContext,
  type ServiceContext,
} from '@earshot/kit';
import type { StoredSegments } from '../db/schema';
import * as editsRepo from '../repositories/edits';
import type { EditTarget } from '../repositories/edits';
import * as searchRepo from '../repositories/search';
import * as transcriptsRepo from '../repositories/transcripts';
import type { Scope, TranscriptResult } from '../repositories/transcripts';

/**
 * What each sealed value is, bound into its additional data with the company id (kit's
 * crypto/fields): a transcript's segments cannot be opened as another transcript's, nor an edit's
 * snapshot as a transcript, nor a passage of one recording as another's.
 */
export const PURPOSES = {
  segments: (fileId: string) => `transcription.transcripts.segments/${fileId}`,
  editBefore: (editId: string) => `transcription.edits.segments_before/${editId}`,
  editAfter: (editId: string) => `transcription.edits.segments_after/${editId}`,
  passage: (fileId: string) => `transcription.search_segments.text/${fileId}`,
};

/** A company's data key and what a sealed value is bound to: what opens it (openText). */
export interface SegmentsOpening {
  key: Uint8Array;
  context: FieldContext;
}

/**
 * Encryption at rest of transcripts' words. The transcription service keeps its own
 * data keys (transcription.company_keys): a company with encryption on has its transcripts'
 * segments, its edits' snapshots and its search passages' text sealed under its key, and its
 * passages indexed by blind-index tokens instead of lexemes. A company without it pays one cached
 * look-up per operation and its rows stay exactly as before.
 */
export class TranscriptWords {
  readonly ring: CompanyKeyRing;

  constructor(private readonly ctx: ServiceContext<BaseConfig & EncryptionConfig>) {
    // Reading the master key validates it: a bad key or unreadable key file stops the start.
    this.ring = new CompanyKeyRing('transcription', 'transcription', masterKeysFrom(ctx.config));
  }

  /** The key to seal the company's new words with; null when they are stored in plain. */
  async sealingKey(db: Db, companyId: string): Promise<Buffer | null> {
    return (await this.ring.encrypts(db, companyId)) ? this.key(db, companyId) : null;
  }

  /** The company's data key, which sealed words need to be opened; none (destroyed) is an error. */
  async key(db: Db, companyId: string): Promise<Buffer> {
    const key = await this.ring.dataKey(db, companyId);
    if (!key) throw new KeyUnavailableError('The data key of this company is gone: its sealed words cannot be read');
    return key;
  }

  /** The company's key when it has one (it may have sealed rows), else null: nothing of it is sealed. */
  keyIfAny(db: Db, companyId: string): Promise<Buffer | null> {
    return this.ring.dataKey(db, companyId);
  }

  async open(db: Db, companyId: string, purpose: string, stored: StoredSegments): Promise<SpeakerSegment[]> {
    if (!isSealedEnvelope(stored)) return stored;
    return openJson<SpeakerSegment[]>(await this.key(db, companyId), { companyId, purpose }, stored.enc);
  }

  /**
   * What opens a transcript's sealed segments elsewhere (an export's rendering thread, which
   * decrypts them off the event loop): the company's data key and the value's context.
   */
  async segmentsOpening(db: Db, companyId: string, fileId: string): Promise<SegmentsOpening> {
    // A copy of its own: a Buffer may be a view of a pool shared with other values, which a message copies whole.
    const key = new Uint8Array(await this.key(db, companyId));
    return { key, context: { companyId, purpose: PURPOSES.segments(fileId) } };
  }

  /**
   * A transcript's segments as their JSON text, opened when sealed but not parsed (a person's data
   * export writes them as they are).
   */
  async segmentsText(db: Db, row: { companyId: string; fileId: string; segments: string }): Promise<string> {
    // Plain segments are a JSON array; sealed ones an envelope object, whose one string is parsed here.
    if (row.segments.startsWith('[')) return row.segments;
    const stored = JSON.parse(row.segments) as StoredSegments;
    if (!isSealedEnvelope(stored)) return row.segments;
    const context = { companyId: row.companyId, purpose: PURPOSES.segments(row.fileId) };
    return openText(await this.key(db, row.companyId), context, stored.enc);
  }

  /** A transcript row with its segments readable. */
  async openRow<T extends { companyId: string; fileId: string; segments: StoredSegments }>(
    db: Db,
    row: T,
  ): Promise<Omit<T, 'segments'> & { segments: SpeakerSegment[] }> {
    return { ...row, segments: await this.open(db, row.companyId, PURPOSES.segments(row.fileId), row.segments) };
  }

  /** A transcript locked for an edit (see editsRepo.lockForEdit), its segments readable. */
  async lockForEdit(
    tx: Db,
    by: { fileId: string } | { transcriptId: string },
    scope: Scope,
  ): Promise<EditTarget | null> {
    const row = await editsRepo.lockForEdit(tx, by, scope);
    return row ? this.openRow(tx, row) : null;
  }

  /** An edit row with its snapshots readable. */
  async openEdit<
    T extends { id: string; companyId: string; segmentsBefore: StoredSegments; segmentsAfter: StoredSegments },
  >(
    db: Db,
    edit: T,
  ): Promise<
    Omit<T, 'segmentsBefore' | 'segmentsAfter'> & { segmentsBefore: SpeakerSegment[]; segmentsAfter: SpeakerSegment[] }
  > {
    return {
      ...edit,
      segmentsBefore: await this.open(db, edit.companyId, PURPOSES.editBefore(edit.id), edit.segmentsBefore),
      segmentsAfter: await this.open(db, edit.companyId, PURPOSES.editAfter(edit.id), edit.segmentsAfter),
    };
  }

  /**
   * The search rows of a recording, rebuilt in the caller's transaction. A plain transcript (every
   * transcript of a company that never had a key) is indexed by PostgreSQL from its row, as always;
   * a sealed one here: its passages' text sealed and its lexemes replaced by blind-index tokens.
   */
  async reindex(tx: Db, companyId: string, fileId: string): Promise<void> {
    const key = await this.keyIfAny(tx, companyId);
    const sealed = key ? await searchRepo.sealedSource(tx, fileId) : null;
    if (!key || !sealed) return searchRepo.reindexSegments(tx, fileId);
    const segments = openJson<SpeakerSegment[]>(key, { companyId, purpose: PURPOSES.segments(fileId) }, sealed.enc);
    await this.indexSealed(tx, key, companyId, fileId, segments, sealed.speakers, sealed.completed);
  }

  private async indexSealed(
    tx: Db,
    key: Buffer,
    companyId: string,
    fileId: string,
    segments: readonly SpeakerSegment[],
    speakers: readonly SpeakerInfo[],
    completed: boolean,
  ): Promise<void> {
    // ord is the segment's place in the transcript (1-based), as jsonb_array_elements' ordinality gives it for plain rows.
    const passages = completed
      ? segments.map((segment, i) => ({ segment, ord: i + 1 })).filter((p) => p.segment.text.trim() !== '')
      : [];
    const config = await searchRepo.companyConfigOf(tx, companyId);
    const lexemes = await searchRepo.lexemesOf(
      tx,
      config,
      passages.map((p) => p.segment.text),
    );
    const index = new BlindIndex(key, companyId);
    const context = { companyId, purpose: PURPOSES.passage(fileId) };
    await searchRepo.replaceSealedPassages(
      tx,
      fileId,
      config,
      completed,
      passages.map((p, i) => ({
        ord: p.ord,
        segmentId: p.segment._id,
        speakerName: speakerName(p.segment.speakerId, speakers),
        start: p.segment.start,
        text: sealText(key, context, p.segment.text),
        tsv: (lexemes[i] ?? []).map((l) => `'${index.token(l.lexeme)}':${l.positions}`).join(' '),
      })),
    );
  }

  /** A passage's text as searched: opened when sealed (with the key given for its company). */
  openPassage(key: Buffer, companyId: string, fileId: string, text: string): string {
    return openText(key, { companyId, purpose: PURPOSES.passage(fileId) }, text);
  }

  /**
   * A finished transcript stored (its segments sealed when the company encrypts) and indexed, in
   * the worker's transaction. What is published in events is the plain result: other services
   * keep their own copies under their own keys.
   */
  async saveResult(
    tx: Db,
    companyId: string,
    fileId: string,
    result: TranscriptResult,
  ): Promise<{ id: string; originalName: string }> {
    const key = await this.sealingKey(tx, companyId);
    const segments = key
      ? sealedEnvelope(sealJson(key, { companyId, purpose: PURPOSES.segments(fileId) }, result.segments))
      : result.segments;
    const saved = await transcriptsRepo.saveResult(tx, fileId, { ...result, segments });
    await this.reindex(tx, companyId, fileId);
    return saved;
  }

  /** A transcript's new state after an edit, sealed like its company's words are. */
  async sealState(db: Db, companyId: string, fileId: string, segments: SpeakerSegment[]): Promise<StoredSegments> {
    const key = await this.sealingKey(db, companyId);
    return key ? sealedEnvelope(sealJson(key, { companyId, purpose: PURPOSES.segments(fileId) }, segments)) : segments;
  }

  /** An edit's snapshots, sealed like its company's words are. */
  async sealEdit(
    db: Db,
    companyId: string,
    editId: string,
    before: SpeakerSegment[],
    after: SpeakerSegment[],
  ): Promise<{ segmentsBefore: StoredSegments; segmentsAfter: StoredSegments }> {
    const key = await this.sealingKey(db, companyId);
    if (!key) return { segmentsBefore: before, segmentsAfter: after };
    return {
      segmentsBefore: sealedEnvelope(sealJson(key, { companyId, purpose: PURPOSES.editBefore(editId) }, before)),
      segmentsAfter: sealedEnvelope(sealJson(key, { companyId, purpose: PURPOSES.editAfter(editId) }, after)),
    };
  }

  /** Refuses to start when sealed words exist and no master key is configured. */
  assertStartable(): Promise<void> {
    return this.ring.assertStartable(this.ctx.db);
  }

  progress(companyId: string): Promise<EncryptionProgress> {
    return this.ring.progress(this.ctx.db, companyId);
  }

  /**
   * The background pass after a company turned encryption on: each of its transcripts still in
   * plain is sealed with its edits and re-indexed, one transaction per transcript on the locked
   * row (an edit waits for it, then reads the sealed state). Progress is saved as it goes, logged,
   * and the end is told by company.encryption_progressed (service `transcription`, state `done`).
   * Safe to run again: sealed rows are skipped.
   */
  async encryptExisting(): Promise<void> {
    await encryptPendingCompanies(
      this.ctx,
      this.ring,
      'transcription',
      'existing transcripts encrypted',
      async (companyId) => {
        const fileIds = await transcriptsRepo.companyFileIds(this.ctx.db, companyId);
        return {
          total: fileIds.length,
          // One recording that cannot be sealed must not leave every later one plain: it is logged,
          // not counted and passed over, and the pass fails at its end, so it is not done and its
          // timer retries (what was sealed is not sealed again).
          run: async (advance) => {
            const failed: string[] = [];
            for (const fileId of fileIds) {
              try {
                await this.ctx.transact((tx) => this.sealTranscript(tx, companyId, fileId));
              } catch (err) {
                this.ctx.logger.error({ err, companyId, fileId }, 'a transcript could not be encrypted');
                failed.push(fileId);
                continue;
              }
              await advance();
            }
            if (failed.length)
              throw new Error(`${failed.length} of ${fileIds.length} transcripts could not be encrypted`);
          },
        };
      },
    );
  }

  private async sealTranscript(tx: Db, companyId: string, fileId: string): Promise<void> {
    const key = await this.key(tx, companyId);
    // A transcript deleted meanwhile has nothing left to seal.
    const row = await transcriptsRepo.lockStoredSegments(tx, fileId);
    if (!row) return;
    if (!isSealedEnvelope(row.segments)) {
      await transcriptsRepo.writeSegments(
        tx,
        fileId,
        sealedEnvelope(sealJson(key, { companyId, purpose: PURPOSES.segments(fileId) }, row.segments)),
      );
    }
    for (const edit of await editsRepo.plainEdits(tx, fileId)) {
      await editsRepo.writeSnapshots(tx, edit.id, {
        segmentsBefore: isSealedEnvelope(edit.segmentsBefore)
          ? edit.segmentsBefore
          : sealedEnvelope(sealJson(key, { companyId, purpose: PURPOSES.editBefore(edit.id) }, edit.segmentsBefore)),
        segmentsAfter: isSealedEnvelope(edit.segmentsAfter)
          ? edit.segmentsAfter
          : sealedEnvelope(sealJson(key, { companyId, purpose: PURPOSES.editAfter(edit.id) }, edit.segmentsAfter)),
      });
    }
    if (!(await searchRepo.isSealedIndex(tx, fileId))) await this.reindex(tx, companyId, fileId);
  }

  /** A company's sealed recordings indexed again (its language, and so its dictionary, changed). */
  async reindexSealed(tx: Db, companyId: string): Promise<void> {
    for (const fileId of await searchRepo.sealedFileIds(tx, companyId)) await this.reindex(tx, companyId, fileId);
  }
}

/** The one TranscriptWords of a service context: routes, handlers, the worker and the pass share its key cache. */
export const wordsOf = perContext((ctx: ServiceContext<BaseConfig & EncryptionConfig>) => new TranscriptWords(ctx));

/** Runs the background pass at start and on a timer (kit's startEncryptionPass: one run at a time, failures logged). */
export const startWordsEncryptionPass = (ctx: ServiceContext<BaseConfig & EncryptionConfig>): NodeJS.Timeout =>
  startEncryptionPass(ctx.logger, 'transcription', () => wordsOf(ctx).encryptExisting());
