import { and, asc, count, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { analysisPatternPrompts, analysisPatterns, type PatternRow } from '../db/schema';
import { contains } from './like';

export type PatternWithPrompts = PatternRow & { promptIds: string[] };

export interface PatternFilter {
  search?: string;
  /** One company's patterns, with or without the global ones; undefined: every pattern. */
  owner?: { companyId: string; withGlobal: boolean };
}

function where(filter: PatternFilter): SQL | undefined {
  const { owner } = filter;
  return and(
    filter.search ? ilike(analysisPatterns.name, contains(filter.search)) : undefined,
    owner
      ? or(
          eq(analysisPatterns.companyId, owner.companyId),
          owner.withGlobal ? isNull(analysisPatterns.companyId) : undefined,
        )
      : undefined,
  );
}

/** The prompt ids of each pattern, in their order. */
async function withPrompts(db: Db, rows: PatternRow[]): Promise<PatternWithPrompts[]> {
  if (rows.length === 0) return [];
  const links = await db
    .select()
    .from(analysisPatternPrompts)
    .where(
      inArray(
        analysisPatternPrompts.patternId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(analysisPatternPrompts.position));
  return rows.map((row) => ({ ...row, promptIds: links.filter((l) => l.patternId === row.id).map((l) => l.promptId) }));
}

export async function listPatterns(db: Db, filter: PatternFilter, page: number, pageSize: number) {
  const condition = where(filter);
  const [rows, [totals]] = await Promise.all([
    db
      .select()
      .from(analysisPatterns)
      .where(condition)
      .orderBy(asc(sql`lower(${analysisPatterns.name})`), asc(analysisPatterns.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(analysisPatterns).where(condition),
  ]);
  return { rows: await withPrompts(db, rows), total: totals?.total ?? 0 };
}

export async function findPattern(db: Db, id: string, forUpdate = false): Promise<PatternWithPrompts | undefined> {
  const query = db.select().from(analysisPatterns).where(eq(analysisPatterns.id, id));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row ? (await withPrompts(db, [row]))[0] : undefined;
}

/** Patterns that run a prompt, locked: a prompt's audience is checked against them before it narrows. */
export async function patternsUsing(tx: Db, promptId: string): Promise<PatternWithPrompts[]> {
  const using = tx
    .select({ id: analysisPatternPrompts.patternId })
    .from(analysisPatternPrompts)
    .where(eq(analysisPatternPrompts.promptId, promptId));
  const rows = await tx
    .select()
    .from(analysisPatterns)
    .where(inArray(analysisPatterns.id, using))
    .orderBy(asc(analysisPatterns.name))
    .for('update');
  return withPrompts(tx, rows);
}

export async function insertPattern(tx: Db, values: typeof analysisPatterns.$inferInsert): Promise<PatternRow> {
  const [row] = await tx.insert(analysisPatterns).values(values).returning();
  return row!;
}

export async function updatePattern(
  tx: Db,
  id: string,
  patch: Partial<typeof analysisPatterns.$inferInsert>,
): Promise<PatternRow> {
  const [row] = await tx
    .update(analysisPatterns)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(analysisPatterns.id, id))
    .returning();
  return row!;
}

export async function setPatternPrompts(tx: Db, patternId: string, promptIds: string[]): Promise<void> {
  await tx.delete(analysisPatternPrompts).where(eq(analysisPatternPrompts.patternId, patternId));
  await tx
    .insert(analysisPatternPrompts)
    .values(promptIds.map((promptId, position) => ({ patternId, promptId, position })));
}

export async function deletePattern(tx: Db, id: string): Promise<void> {
  await tx.delete(analysisPatterns).where(eq(analysisPatterns.id, id));
}

/** Patterns that run by themselves in this way for a company: its own and the global ones. */
export async function autoPatterns(
  tx: Db,
  companyId: string,
  autoRun: PatternRow['autoRun'],
): Promise<PatternWithPrompts[]> {
  const rows = await tx
    .select()
    .from(analysisPatterns)
    .where(
      and(
        eq(analysisPatterns.autoRun, autoRun),
        or(eq(analysisPatterns.companyId, companyId), isNull(analysisPatterns.companyId)),
      ),
    )
    .orderBy(asc(analysisPatterns.createdAt), asc(analysisPatterns.id));
  return withPrompts(tx, rows);
}
