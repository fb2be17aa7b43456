import { and, asc, eq, getTableColumns, gt, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { anchors, chainCheckpoints, chainHeads, entries, type NewEntryRow } from '../db/schema';

/** An entry's chain, as the chain index and chain_heads name it ('' = the platform's). */
const chainKey = sql<string>`coalesce(${entries.companyId}, '')`;

export interface Head {
  chainKey: string;
  seq: number | null;
  hash: string | null;
  entries: number;
  baseSeq: number | null;
  baseHash: string | null;
  pruned: number;
}

/** Creates a chain's head row if it has none; true when this call created it. */
export async function createHead(tx: Db, key: string): Promise<boolean> {
  const created = await tx
    .insert(chainHeads)
    .values({ chainKey: key })
    .onConflictDoNothing()
    .returning({ key: chainHeads.chainKey });
  return created.length > 0;
}

/** The chain's head, locked until the transaction ends: the chain's appends queue here. */
export async function lockHead(tx: Db, key: string): Promise<Head> {
  return (await lockHeadIfAny(tx, key))!;
}

/** As lockHead, for a chain that may have no head yet (no entry ever). */
export async function lockHeadIfAny(tx: Db, key: string): Promise<Head | undefined> {
  const [head] = await tx.select().from(chainHeads).where(eq(chainHeads.chainKey, key)).for('update');
  return head;
}

/** The first entry after `afterSeq` of the chain that happened at or after `olderThan`: retention keeps it and all after it. */
export async function firstKeptSeq(db: Db, key: string, afterSeq: number, olderThan: Date): Promise<number | null> {
  const [row] = await db
    .select({ seq: sql<string | null>`min(${entries.seq})` })
    .from(entries)
    .where(and(sql`${chainKey} = ${key}`, gt(entries.seq, afterSeq), gte(entries.occurredAt, olderThan)));
  return row?.seq == null ? null : Number(row.seq);
}

/**
 * Cuts the chain's entries after `fromSeq` up to `toSeq` (its new base, whose hash the first kept
 * entry links to): the head records the base first, then the trigger lets these deletes through.
 */
export async function pruneThrough(
  tx: Db,
  cut: { key: string; fromSeq: number; toSeq: number; hash: string; removed: number; olderThan: Date },
): Promise<void> {
  await tx
    .update(chainHeads)
    .set({
      baseSeq: cut.toSeq,
      baseHash: cut.hash,
      pruned: sql`${chainHeads.pruned} + ${cut.removed}`,
      updatedAt: new Date(),
    })
    .where(eq(chainHeads.chainKey, cut.key));
  await tx.insert(chainCheckpoints).values({
    chainKey: cut.key,
    baseSeq: cut.toSeq,
    baseHash: cut.hash,
    removed: cut.removed,
    olderThan: cut.olderThan,
  });
  await tx.execute(sql`select set_config('audit.pruning', 'on', true)`);
  await tx
    .delete(entries)
    .where(and(sql`${chainKey} = ${cut.key}`, gt(entries.seq, cut.fromSeq), lte(entries.seq, cut.toSeq)));
  await tx.execute(sql`select set_config('audit.pruning', 'off', true)`);
}

export async function readHead(db: Db, key: string): Promise<Head | undefined> {
  const [head] = await db.select().from(chainHeads).where(eq(chainHeads.chainKey, key));
  return head;
}

export async function readHeads(db: Db): Promise<Head[]> {
  return db.select().from(chainHeads).orderBy(asc(chainHeads.chainKey));
}

export async function advanceHead(tx: Db, key: string, seq: number, hash: string, added: number): Promise<void> {
  await tx
    .update(chainHeads)
    .set({ seq, hash, entries: sql`${chainHeads.entries} + ${added}`, updatedAt: new Date() })
    .where(eq(chainHeads.chainKey, key));
}

/** Which of these event ids are logged already (the entries' own unique id, beside the applied-events ledger). */
export async function loggedIds(tx: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx.select({ id: entries.id }).from(entries).where(inArray(entries.id, ids));
  return new Set(rows.map((row) => row.id.toLowerCase()));
}

/** Appends rows in their order (seq follows it: the chain's lock is held); returns each one's seq by its id (lower case). */
export async function appendRows(tx: Db, rows: NewEntryRow[]): Promise<Map<string, number>> {
  const inserted = await tx.insert(entries).values(rows).returning({ id: entries.id, seq: entries.seq });
  return new Map(inserted.map((row) => [row.id.toLowerCase(), row.seq]));
}

/** Chains that still hold entries from before the chain existed. */
export async function unsealedChains(db: Db): Promise<string[]> {
  const rows = await db.selectDistinct({ key: chainKey }).from(entries).where(isNull(entries.hash));
  return rows.map((row) => row.key);
}

/**
 * One chain's entries after `afterSeq`, in chain order, with the time as the database holds it
 * (microseconds: a JavaScript Date would hide a sub-millisecond change).
 */
export async function readLinks(db: Db, key: string, afterSeq: number, limit: number, onlyUnsealed = false) {
  return db
    .select({
      ...getTableColumns(entries),
      at: sql<string>`to_char(${entries.occurredAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(entries)
    .where(and(sql`${chainKey} = ${key}`, gt(entries.seq, afterSeq), onlyUnsealed ? isNull(entries.hash) : undefined))
    .orderBy(asc(chainKey), asc(entries.seq))
    .limit(limit);
}
export type LinkRow = Awaited<ReturnType<typeof readLinks>>[number];

/** Writes the hashes of entries recorded before the chain (the one update the trigger allows). */
export async function sealRows(tx: Db, seals: { seq: number; prevHash: string; hash: string }[]): Promise<void> {
  if (seals.length === 0) return;
  const values = sql.join(
    seals.map((s) => sql`(${s.seq}::bigint, ${s.prevHash}, ${s.hash})`),
    sql`, `,
  );
  await tx.execute(
    sql`update ${entries} set prev_hash = v.prev_hash, hash = v.hash from (values ${values}) as v(seq, prev_hash, hash) where ${entries.seq} = v.seq`,
  );
}

/** Records today's anchor unless one is there; true when this call wrote it (one replica does). */
export async function insertAnchor(
  db: Db,
  day: string,
  heads: (typeof anchors.$inferInsert)['heads'],
): Promise<boolean> {
  const written = await db.insert(anchors).values({ day, heads }).onConflictDoNothing().returning({ day: anchors.day });
  return written.length > 0;
}

/** Every chain: those with entries and those with a head record (a head without entries is a broken chain too). */
export async function chainKeys(db: Db): Promise<string[]> {
  const rows = await db.execute(
    sql`select coalesce(company_id, '') as key from ${entries} union select ${chainHeads.chainKey} from ${chainHeads} order by 1`,
  );
  return (rows as unknown as { rows: { key: string }[] }).rows.map((row) => row.key);
}
