import { and, count, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { customGpts, knowledgeFiles, type CustomGptRow, type NewCustomGptRow } from '../db/schema';

const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const jsonHas = (column: typeof customGpts.userIds | typeof customGpts.companyIds, value: string) =>
  sql`${column} @> jsonb_build_array(${value}::text)`;

/**
 * Which GPTs a lister reaches: every one (null), or one company's own and the platform GPTs
 * offered to it (all companies when company_ids is empty).
 */
export function reachOf(companyId: string | null): SQL | undefined {
  if (companyId === null) return undefined;
  return or(
    eq(customGpts.companyId, companyId),
    and(
      isNull(customGpts.companyId),
      or(sql`${customGpts.companyIds} = '[]'::jsonb`, jsonHas(customGpts.companyIds, companyId)),
    ),
  );
}

/**
 * The GPTs a person may chat with: enabled, in reach of their company (for the platform
 * administrator, who has none, the platform GPTs: never a company's own), and shown to them.
 */
function chattableBy(companyId: string | null, userId: string): SQL | undefined {
  return and(
    eq(customGpts.enabled, true),
    companyId === null ? isNull(customGpts.companyId) : reachOf(companyId),
    or(
      eq(customGpts.visibility, 'company'),
      eq(customGpts.createdBy, userId),
      and(eq(customGpts.visibility, 'users'), jsonHas(customGpts.userIds, userId)),
    ),
  );
}

export async function insert(tx: Db, row: NewCustomGptRow): Promise<CustomGptRow> {
  const [created] = await tx.insert(customGpts).values(row).returning();
  return created!;
}

export async function find(db: Db, id: string): Promise<CustomGptRow | null> {
  const [row] = await db.select().from(customGpts).where(eq(customGpts.id, id)).limit(1);
  return row ?? null;
}

export async function update(tx: Db, id: string, patch: Partial<NewCustomGptRow>): Promise<CustomGptRow> {
  const [row] = await tx
    .update(customGpts)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(customGpts.id, id))
    .returning();
  return row!;
}

export async function remove(tx: Db, id: string): Promise<void> {
  await tx.delete(customGpts).where(eq(customGpts.id, id));
}

export async function list(
  db: Db,
  where: SQL | undefined,
  page: number,
  pageSize: number,
  search?: string,
): Promise<{ rows: CustomGptRow[]; total: number }> {
  const pattern = search ? likePattern(search) : null;
  const filter = and(
    where,
    pattern ? or(ilike(customGpts.name, pattern), ilike(customGpts.description, pattern)) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(customGpts)
      .where(filter)
      .orderBy(desc(customGpts.createdAt), desc(customGpts.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(customGpts).where(filter),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

/** GPTs a person may chat with (see chattableBy), by name (a picker lists them all; a company keeps dozens). */
export async function chattable(
  db: Db,
  companyId: string | null,
  userId: string,
  limit: number,
): Promise<CustomGptRow[]> {
  return db
    .select()
    .from(customGpts)
    .where(chattableBy(companyId, userId))
    .orderBy(customGpts.name, customGpts.id)
    .limit(limit);
}

/** Knowledge files per GPT. */
export async function fileCounts(db: Db, ids: readonly string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: knowledgeFiles.customGptId, n: count() })
    .from(knowledgeFiles)
    .where(inArray(knowledgeFiles.customGptId, [...ids]))
    .groupBy(knowledgeFiles.customGptId);
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

/** A company's own GPTs (their files, chunks and vectors go with them: on delete cascade). */
export async function removeCompany(tx: Db, companyId: string): Promise<{ storageKey: string }[]> {
  const files = await tx
    .select({ storageKey: knowledgeFiles.storageKey })
    .from(knowledgeFiles)
    .where(eq(knowledgeFiles.companyId, companyId));
  await tx.delete(customGpts).where(eq(customGpts.companyId, companyId));
  return files;
}
