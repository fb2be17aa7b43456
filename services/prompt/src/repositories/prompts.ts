import { and, arrayContains, asc, count, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { PromptScope, PromptType } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import { promptVersions, prompts, type NewPromptRow, type PromptRow, type PromptVersionRow } from '../db/schema';
import { contains } from './like';

/** Who runs a prompt: people of a company (userId null: the company as a whole, as a pattern does). */
export interface Audience {
  companyId: string | null;
  userId: string | null;
}

const live = isNull(prompts.deletedAt);

/**
 * Prompts an audience may run: global ones (isGlobal or scope global) for everyone, company
 * prompts for the companies they list, user prompts for the people they list.
 */
export function availableTo(audience: Audience): SQL {
  return or(
    eq(prompts.isGlobal, true),
    eq(prompts.scope, 'global'),
    audience.companyId
      ? and(eq(prompts.scope, 'company'), arrayContains(prompts.companies, [audience.companyId]))
      : undefined,
    audience.userId ? and(eq(prompts.scope, 'user'), arrayContains(prompts.users, [audience.userId])) : undefined,
  )!;
}

export interface PromptFilter {
  search?: string;
  type?: PromptType;
  /** 'NA': without a scope. */
  scope?: PromptScope | 'NA';
  /** Only what this audience may run; undefined: every prompt. */
  audience?: Audience;
}

function where(filter: PromptFilter): SQL {
  const pattern = filter.search ? contains(filter.search) : undefined;
  return and(
    live,
    pattern ? or(ilike(prompts.name, pattern), ilike(prompts.description, pattern)) : undefined,
    filter.type ? eq(prompts.type, filter.type) : undefined,
    filter.scope === 'NA' ? isNull(prompts.scope) : filter.scope ? eq(prompts.scope, filter.scope) : undefined,
    filter.audience ? availableTo(filter.audience) : undefined,
  )!;
}

export async function listPrompts(db: Db, filter: PromptFilter, page: number, pageSize: number) {
  const condition = where(filter);
  const [rows, [totals]] = await Promise.all([
    db
      .select()
      .from(prompts)
      .where(condition)
      .orderBy(asc(sql`lower(${prompts.name})`), asc(prompts.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(prompts).where(condition),
  ]);
  return { rows, total: totals?.total ?? 0 };
}

export async function findPrompt(db: Db, id: string, audience?: Audience): Promise<PromptRow | undefined> {
  const [row] = await db
    .select()
    .from(prompts)
    .where(and(eq(prompts.id, id), live, audience ? availableTo(audience) : undefined));
  return row;
}

/** Locks the prompt for the rest of the transaction: versions are numbered one after the other. */
export async function findPromptForUpdate(tx: Db, id: string): Promise<PromptRow | undefined> {
  const [row] = await tx
    .select()
    .from(prompts)
    .where(and(eq(prompts.id, id), live))
    .for('update');
  return row;
}

/** Of `ids`, those an audience may run (locked, so a prompt cannot narrow its audience meanwhile). */
export async function availableIds(tx: Db, ids: string[], audience: Audience): Promise<Set<string>> {
  const rows = await tx
    .select({ id: prompts.id })
    .from(prompts)
    .where(and(inArray(prompts.id, ids), live, availableTo(audience)))
    .for('share');
  return new Set(rows.map((r) => r.id));
}

export async function insertPrompt(tx: Db, values: NewPromptRow): Promise<PromptRow> {
  const [row] = await tx.insert(prompts).values(values).returning();
  return row!;
}

export async function updatePrompt(tx: Db, id: string, patch: Partial<NewPromptRow>): Promise<PromptRow> {
  const [row] = await tx
    .update(prompts)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(prompts.id, id))
    .returning();
  return row!;
}

export async function markDeleted(tx: Db, id: string): Promise<void> {
  await tx.update(prompts).set({ deletedAt: new Date() }).where(eq(prompts.id, id));
}

/** Keeps the content of a version (a prompt's current content is always its latest version). */
export async function insertVersion(tx: Db, row: PromptRow, createdBy: string | null): Promise<void> {
  await tx.insert(promptVersions).values({
    promptId: row.id,
    version: row.version,
    name: row.name,
    description: row.description,
    prompt: row.prompt,
    type: row.type,
    expectedFormat: row.expectedFormat,
    createdBy,
  });
}

export async function findVersion(db: Db, promptId: string, version: number): Promise<PromptVersionRow | undefined> {
  const [row] = await db
    .select()
    .from(promptVersions)
    .where(and(eq(promptVersions.promptId, promptId), eq(promptVersions.version, version)));
  return row;
}

export async function listVersions(db: Db, promptId: string, page: number, pageSize: number) {
  const condition = eq(promptVersions.promptId, promptId);
  const [rows, [totals]] = await Promise.all([
    db
      .select()
      .from(promptVersions)
      .where(condition)
      .orderBy(desc(promptVersions.version))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(promptVersions).where(condition),
  ]);
  return { rows, total: totals?.total ?? 0 };
}

/** Of `ids`, the current version of each prompt an audience may run (undefined: any live prompt). */
export async function runnableVersions(
  db: Db,
  ids: string[],
  audience: Audience | undefined,
): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: prompts.id, version: prompts.version })
    .from(prompts)
    .where(and(inArray(prompts.id, ids), live, audience ? availableTo(audience) : undefined));
  return new Map(rows.map((r) => [r.id, r.version]));
}
