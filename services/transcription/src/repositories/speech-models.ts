import { and, eq, inArray, sql } from 'drizzle-orm';
import { bigint, boolean, jsonb, text, timestamp } from 'drizzle-orm/pg-core';
import type { Actor, SpeechModelKind, SpeechModelLanguages, SpeechModelStatus } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import { transcription } from '../db/schema';

export const speechModels = transcription.table('speech_models', {
  name: text('name').primaryKey(),
  kind: text('kind').$type<SpeechModelKind>().notNull(),
  languages: text('languages').$type<SpeechModelLanguages>().notNull(),
  /** Absolute path of the final file (the download writes `<path>.part` first). */
  path: text('path').notNull(),
  url: text('url').notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  /** The pinned hash, or (unpinned) the hash recorded when the download completed. */
  sha256: text('sha256'),
  status: text('status').$type<SpeechModelStatus>().notNull(),
  bytesDone: bigint('bytes_done', { mode: 'number' }).notNull().default(0),
  error: text('error'),
  isDefault: boolean('is_default').notNull().default(false),
  requestedBy: jsonb('requested_by').$type<Actor>(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
export type SpeechModelRow = typeof speechModels.$inferSelect;
export type NewSpeechModelRow = typeof speechModels.$inferInsert;

export async function listModelRows(db: Db): Promise<SpeechModelRow[]> {
  return db.select().from(speechModels);
}

export async function modelRow(db: Db, name: string): Promise<SpeechModelRow | undefined> {
  const [row] = await db.select().from(speechModels).where(eq(speechModels.name, name));
  return row;
}

/** Locks the row for the rest of the transaction (two administrators clicking at once). */
export async function lockModelRow(tx: Db, name: string): Promise<SpeechModelRow | undefined> {
  const [row] = await tx.select().from(speechModels).where(eq(speechModels.name, name)).for('update');
  return row;
}

export async function saveModelRow(tx: Db, row: NewSpeechModelRow): Promise<void> {
  const { name: _key, ...rest } = row;
  await tx
    .insert(speechModels)
    .values({ ...row, updatedAt: new Date() })
    .onConflictDoUpdate({ target: speechModels.name, set: { ...rest, updatedAt: new Date() } });
}

export async function updateModelRow(
  tx: Db,
  name: string,
  set: Partial<Omit<NewSpeechModelRow, 'name'>>,
): Promise<void> {
  await tx
    .update(speechModels)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(speechModels.name, name));
}

/** Progress of a running download, written only while it is still this download's (not cancelled). */
export async function recordProgress(db: Db, name: string, bytesDone: number, size: number): Promise<boolean> {
  const rows = await db
    .update(speechModels)
    .set({ bytesDone, size, updatedAt: new Date() })
    .where(and(eq(speechModels.name, name), eq(speechModels.status, 'downloading')))
    .returning({ name: speechModels.name });
  return rows.length > 0;
}

export async function defaultModelRow(db: Db): Promise<SpeechModelRow | undefined> {
  const [row] = await db.select().from(speechModels).where(eq(speechModels.isDefault, true));
  return row;
}

export async function setDefaultModel(tx: Db, name: string | null): Promise<void> {
  await tx
    .update(speechModels)
    .set({ isDefault: false, updatedAt: new Date() })
    .where(eq(speechModels.isDefault, true));
  if (name)
    await tx.update(speechModels).set({ isDefault: true, updatedAt: new Date() }).where(eq(speechModels.name, name));
}

export async function readyRows(db: Db, names: readonly string[]): Promise<SpeechModelRow[]> {
  return db
    .select()
    .from(speechModels)
    .where(and(inArray(speechModels.name, [...names]), eq(speechModels.status, 'ready')));
}

/**
 * Takes over the downloads nobody is moving: rows still `downloading` whose last progress write is
 * older than `idleMs` (a running download writes at least every minute). Answers the rows taken.
 */
export async function claimIdleDownloads(db: Db, idleMs: number): Promise<SpeechModelRow[]> {
  return db
    .update(speechModels)
    .set({ updatedAt: new Date() })
    .where(
      and(
        eq(speechModels.status, 'downloading'),
        sql`${speechModels.updatedAt} <= now() - make_interval(secs => ${idleMs / 1000})`,
      ),
    )
    .returning();
}

export async function removeModelRow(tx: Db, name: string): Promise<void> {
  await tx.delete(speechModels).where(eq(speechModels.name, name));
}
