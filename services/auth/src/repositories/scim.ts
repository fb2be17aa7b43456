import { and, asc, count, desc, eq, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import type { Role } from '@earshot/contracts';
import { companies, scimTokens, users, type ScimTokenRow, type UserRow } from '../db/schema';

export async function insertScimToken(
  db: Db,
  token: { companyId: string; name: string; tokenHash: string; createdBy: string | null },
): Promise<ScimTokenRow> {
  const [row] = await db.insert(scimTokens).values(token).returning();
  return row!;
}

/** A company's tokens that still work, newest first. */
export async function listScimTokens(db: Db, companyId: string): Promise<ScimTokenRow[]> {
  return db
    .select()
    .from(scimTokens)
    .where(and(eq(scimTokens.companyId, companyId), isNull(scimTokens.revokedAt)))
    .orderBy(desc(scimTokens.createdAt), asc(scimTokens.id));
}

/** Revokes a live token of the company; undefined when there is none (another company's included). */
export async function revokeScimToken(db: Db, companyId: string, id: string): Promise<ScimTokenRow | undefined> {
  const [row] = await db
    .update(scimTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(scimTokens.id, id), eq(scimTokens.companyId, companyId), isNull(scimTokens.revokedAt)))
    .returning();
  return row;
}

/** The live token with this hash, with its company's status, when the company still exists. */
export async function findScimToken(db: Db, tokenHash: string) {
  const [row] = await db
    .select({ token: scimTokens, companyStatus: companies.status })
    .from(scimTokens)
    .innerJoin(companies, and(eq(companies.id, scimTokens.companyId), isNull(companies.deletedAt)))
    .where(and(eq(scimTokens.tokenHash, tokenHash), isNull(scimTokens.revokedAt)));
  return row;
}

/** Notes a use; written at most once a minute per token, so a provisioning burst is not a write per request. */
export async function touchScimToken(db: Db, id: string): Promise<void> {
  await db
    .update(scimTokens)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(scimTokens.id, id),
        or(isNull(scimTokens.lastUsedAt), lt(scimTokens.lastUsedAt, sql`now() - interval '1 minute'`)),
      ),
    );
}

/** What a SCIM filter may ask about a company's people (only `eq` on these attributes is supported). */
export interface ScimUserFilter {
  email?: string;
  externalId?: string;
  role?: Role;
}

function userWhere(companyId: string, filter: ScimUserFilter): SQL | undefined {
  return and(
    eq(users.companyId, companyId),
    filter.email !== undefined ? eq(users.email, filter.email) : undefined,
    filter.externalId !== undefined ? eq(users.externalId, filter.externalId) : undefined,
    filter.role !== undefined ? eq(users.role, filter.role) : undefined,
  );
}

/** A page of a company's people in a stable order (oldest first), as SCIM's startIndex paging needs. */
export async function listScimUsers(
  db: Db,
  companyId: string,
  filter: ScimUserFilter,
  page: { offset: number; limit: number },
): Promise<{ rows: UserRow[]; total: number }> {
  const where = userWhere(companyId, filter);
  const [totalRow] = await db.select({ n: count() }).from(users).where(where);
  const rows =
    page.limit === 0
      ? []
      : await db
          .select()
          .from(users)
          .where(where)
          .orderBy(asc(users.createdAt), asc(users.id))
          .limit(page.limit)
          .offset(page.offset);
  return { rows, total: Number(totalRow?.n ?? 0) };
}

/** The ids and names of a company's people with a role (a group's members). */
export async function membersWithRole(db: Db, companyId: string, role: Role) {
  return db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(userWhere(companyId, { role }))
    .orderBy(asc(users.createdAt), asc(users.id));
}

/** Is this externalId someone else's in the company? */
export async function externalIdTaken(db: Db, companyId: string, externalId: string, exceptId?: string) {
  const rows = await db.select({ id: users.id }).from(users).where(userWhere(companyId, { externalId }));
  return rows.some((r) => r.id !== exceptId);
}
