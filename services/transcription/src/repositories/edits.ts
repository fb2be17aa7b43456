import { and, desc, eq, notInArray, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import type { SpeakerInfo, SpeakerSegment } from '@earshot/contracts';
import { edits, transcripts, type EditRow, type StoredSegments } from '../db/schema';
import type { Scope } from './transcripts';

/** A transcript as an edit works on it, its row locked until the transaction ends. */
export interface EditTarget {
  id: string;
  fileId: string;
  companyId: string;
  uploadedBy: string | null;
  speakers: SpeakerInfo[];
  segments: SpeakerSegment[];
  /** The transcript's edit version as locked: what an edit's base version is checked against. */
  version: number;
}

/** The locked row as stored: its segments possibly sealed (services/words-encryption.ts opens them). */
export type StoredEditTarget = Omit<EditTarget, 'segments'> & { segments: StoredSegments };

/**
 * Locks a transcript of the scope for an edit (by file id, or by transcript id for the word route),
 * so edits of one transcript apply one after the other. Null when the caller cannot see it.
 */
export async function lockForEdit(
  tx: Db,
  by: { fileId: string } | { transcriptId: string },
  scope: Scope,
): Promise<StoredEditTarget | null> {
  const where = 'fileId' in by ? eq(transcripts.fileId, by.fileId) : eq(transcripts.id, by.transcriptId);
  const [row] = await tx
    .select({
      id: transcripts.id,
      fileId: transcripts.fileId,
      companyId: transcripts.companyId,
      uploadedBy: transcripts.uploadedBy,
      speakers: transcripts.speakers,
      segments: transcripts.segments,
      version: transcripts.editVersion,
    })
    .from(transcripts)
    .where(
      and(
        where,
        scope.companyId ? eq(transcripts.companyId, scope.companyId) : undefined,
        scope.owner ? eq(transcripts.uploadedBy, scope.owner) : undefined,
      ),
    )
    .for('update');
  return row ?? null;
}

/** Writes an edit's state on the locked row and counts the edit: the transcript's new version. */
export async function writeState(
  tx: Db,
  fileId: string,
  state: { speakers: SpeakerInfo[]; segments: StoredSegments },
): Promise<number> {
  const [row] = await tx
    .update(transcripts)
    .set({
      speakers: state.speakers,
      segments: state.segments,
      editVersion: sql`${transcripts.editVersion} + 1`,
      updatedAt: sql`now()`,
    })
    .where(eq(transcripts.fileId, fileId))
    .returning({ version: transcripts.editVersion });
  return row!.version;
}

export type NewEdit = typeof edits.$inferInsert;

export async function insertEdit(tx: Db, edit: NewEdit): Promise<void> {
  await tx.insert(edits).values(edit);
}

export async function findEdit(tx: Db, fileId: string, editId: string): Promise<EditRow | null> {
  const [row] = await tx
    .select()
    .from(edits)
    .where(and(eq(edits.fileId, fileId), eq(edits.id, editId)))
    .limit(1);
  return row ?? null;
}

/** Marks an edit undone by `by` (now), or standing again. */
export async function setUndone(tx: Db, editId: string, undone: boolean, by: string): Promise<void> {
  await tx
    .update(edits)
    .set(undone ? { undone, undoneBy: by, undoneAt: sql`now()` } : { undone, undoneBy: null, undoneAt: null })
    .where(eq(edits.id, editId));
}

/** An edit a person made, not an undo or redo of one (those are recorded as rows of their own). */
const ownEdit = (fileId: string, actorId: string) =>
  and(eq(edits.fileId, fileId), eq(edits.actorId, actorId), notInArray(edits.kind, ['undo', 'redo']));

/** A person's last `limit` edits of a transcript that stand (not undone), newest first: their undo stack to check. */
export async function ownStanding(db: Db, fileId: string, actorId: string, limit: number): Promise<EditRow[]> {
  return db
    .select()
    .from(edits)
    .where(and(ownEdit(fileId, actorId), eq(edits.undone, false)))
    .orderBy(desc(edits.createdAt), desc(edits.id))
    .limit(limit);
}

/**
 * A person's edits of a transcript that they undid since their last new edit of it, the last undone
 * first: their redo stack to check (a new edit forgets what could be redone, as in every editor).
 */
export async function ownUndone(db: Db, fileId: string, actorId: string, limit: number): Promise<EditRow[]> {
  const lastNew = db
    .select({ at: sql`max(${edits.createdAt})` })
    .from(edits)
    .where(ownEdit(fileId, actorId));
  return db
    .select()
    .from(edits)
    .where(
      and(
        ownEdit(fileId, actorId),
        eq(edits.undone, true),
        eq(edits.undoneBy, actorId),
        sql`${edits.undoneAt} > coalesce((${lastNew}), '-infinity'::timestamptz)`,
      ),
    )
    .orderBy(desc(edits.undoneAt), desc(edits.id))
    .limit(limit);
}

/** `position`: created_at as the database's text (microseconds: a JS Date would round them away) for the keyset. */
export type EditSummary = Pick<
  EditRow,
  'id' | 'kind' | 'summary' | 'actorId' | 'actorName' | 'createdAt' | 'undone'
> & { position: string };

/** One page of a transcript's history, newest first, after the position `after` (keyset on created_at, id). */
export async function listEdits(
  db: Db,
  fileId: string,
  after: { position: string; id: string } | null,
  limit: number,
): Promise<EditSummary[]> {
  return db
    .select({
      id: edits.id,
      kind: edits.kind,
      summary: edits.summary,
      actorId: edits.actorId,
      actorName: edits.actorName,
      createdAt: edits.createdAt,
      undone: edits.undone,
      position: sql<string>`${edits.createdAt}::text`,
    })
    .from(edits)
    .where(
      and(
        eq(edits.fileId, fileId),
        after
          ? sql`(${edits.createdAt}, ${edits.id}) < (${after.position}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(edits.createdAt), desc(edits.id))
    .limit(limit);
}

/** A transcript's edits whose snapshots are not both sealed yet (the background encryption's work). */
export async function plainEdits(
  tx: Db,
  fileId: string,
): Promise<Pick<EditRow, 'id' | 'segmentsBefore' | 'segmentsAfter'>[]> {
  return tx
    .select({ id: edits.id, segmentsBefore: edits.segmentsBefore, segmentsAfter: edits.segmentsAfter })
    .from(edits)
    .where(
      and(
        eq(edits.fileId, fileId),
        sql`(jsonb_typeof(${edits.segmentsBefore}) = 'array' or jsonb_typeof(${edits.segmentsAfter}) = 'array')`,
      ),
    );
}

export async function writeSnapshots(
  tx: Db,
  editId: string,
  snapshots: { segmentsBefore: StoredSegments; segmentsAfter: StoredSegments },
): Promise<void> {
  await tx.update(edits).set(snapshots).where(eq(edits.id, editId));
}
