import { and, asc, count, desc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import type { Role } from '@earshot/contracts';
import { companies, users, type UserRow } from '../db/schema';

/** Which users a caller may see: one company, or every company (platform administrators). */
export type Scope = { all: true } | { all: false; companyId: string };

function inScope(scope: Scope): SQL | undefined {
  return scope.all ? undefined : eq(users.companyId, scope.companyId);
}

/** The own-account read runs on nearly every signed-in request: built once per handle, it only binds the id. */
const ownAccountQueries = new WeakMap<Db, ReturnType<typeof prepareOwnAccount>>();
const prepareOwnAccount = (db: Db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare('auth_own_account');

/** The signed-in caller's own row (no company scope: their id comes from their verified token). */
export async function findOwnAccount(db: Db, id: string): Promise<UserRow | undefined> {
  let query = ownAccountQueries.get(db);
  if (!query) ownAccountQueries.set(db, (query = prepareOwnAccount(db)));
  const [row] = await query.execute({ id });
  return row;
}

export async function findUser(db: Db, id: string, scope: Scope): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), inScope(scope)));
  return row;
}

/** For updates: the row locked until the transaction ends. */
export async function lockUser(db: Db, id: string, scope: Scope): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), inScope(scope)))
    .for('update');
  return row;
}

/** Accounts with this email: in one company, among platform administrators (null), or everywhere (undefined). */
export async function findByEmail(db: Db, email: string, companyId?: string | null): Promise<UserRow[]> {
  const company =
    companyId === undefined ? undefined : companyId === null ? isNull(users.companyId) : eq(users.companyId, companyId);
  return db
    .select()
    .from(users)
    .where(and(eq(users.email, email), company))
    .orderBy(asc(users.createdAt));
}

export async function emailTaken(db: Db, email: string, companyId: string | null, exceptId?: string): Promise<boolean> {
  const rows = await findByEmail(db, email, companyId);
  return rows.some((r) => r.id !== exceptId);
}

export async function countInCompany(db: Db, companyId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.companyId, companyId));
  return Number(row?.n ?? 0);
}

/** Active administrators of a company (the last one cannot be removed, demoted or disabled). */
export async function countActiveAdmins(db: Db, companyId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.role, 'ADMIN'), eq(users.status, 'active')));
  return Number(row?.n ?? 0);
}

export async function hostAdminExists(db: Db): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.role, 'HOST_ADMIN')).limit(1);
  return rows.length > 0;
}

export interface NewUser {
  companyId: string | null;
  email: string;
  firstName: string;
  lastName: string;
  avatar: string | null;
  role: Role;
  passwordHash: string;
  passwordChangeRequired?: boolean;
  /** invited: waiting to choose a password with an invitation link (left out: active). */
  status?: 'active' | 'invited' | 'disabled';
  /** The identity provider's id for the person (SCIM provisioning). */
  externalId?: string | null;
}

export async function insertUser(db: Db, user: NewUser): Promise<UserRow> {
  const [row] = await db.insert(users).values(user).returning();
  return row!;
}

export type UserPatch = Partial<
  Pick<
    UserRow,
    | 'companyId'
    | 'email'
    | 'firstName'
    | 'lastName'
    | 'avatar'
    | 'role'
    | 'status'
    | 'passwordHash'
    | 'twoStepEnabled'
    | 'twoStepSecret'
    | 'twoStepPendingSecret'
    | 'twoStepLastStep'
    | 'lastSignInAt'
    | 'passwordChangeRequired'
    | 'language'
    | 'monthlyCredits'
    | 'externalId'
  >
>;

export async function updateUser(db: Db, id: string, patch: UserPatch): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  return row!;
}

/** Records the TOTP time step just used, only if it is newer than the last one (no replay). */
export async function claimTwoStepStep(db: Db, id: string, step: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ twoStepLastStep: step })
    .where(and(eq(users.id, id), or(isNull(users.twoStepLastStep), sql`${users.twoStepLastStep} < ${step}`)))
    .returning({ id: users.id });
  return rows.length === 1;
}

export async function deleteUser(db: Db, id: string): Promise<void> {
  await db.delete(users).where(eq(users.id, id));
}

export interface ListFilter {
  scope: Scope;
  q?: string;
  role?: Role;
  status?: UserRow['status'];
  page: number;
  pageSize: number;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function listWhere(filter: Omit<ListFilter, 'page' | 'pageSize'>): SQL | undefined {
  const pattern = filter.q ? `%${escapeLike(filter.q)}%` : undefined;
  return and(
    inScope(filter.scope),
    filter.role ? eq(users.role, filter.role) : undefined,
    filter.status ? eq(users.status, filter.status) : undefined,
    pattern
      ? or(
          ilike(users.email, pattern),
          ilike(users.firstName, pattern),
          ilike(users.lastName, pattern),
          ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
        )
      : undefined,
  );
}

export async function listUsers(db: Db, filter: ListFilter): Promise<{ rows: UserRow[]; total: number }> {
  const where = listWhere(filter);
  const [totalRow] = await db.select({ n: count() }).from(users).where(where);
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), asc(users.id))
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize);
  return { rows, total: Number(totalRow?.n ?? 0) };
}

export async function dropdownUsers(
  db: Db,
  scope: Scope,
): Promise<Pick<UserRow, 'id' | 'firstName' | 'lastName' | 'email'>[]> {
  return db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(inScope(scope))
    .orderBy(asc(users.firstName), asc(users.lastName))
    .limit(1000);
}

/** The people of consumer (b2c) companies that still exist, newest first. */
export async function listB2cUsers(db: Db, filter: Omit<ListFilter, 'scope' | 'role'> & { companyId?: string }) {
  const where = and(
    eq(companies.type, 'b2c'),
    isNull(companies.deletedAt),
    filter.companyId ? eq(users.companyId, filter.companyId) : undefined,
    listWhere({ scope: { all: true }, q: filter.q, status: filter.status }),
  );
  const b2c = eq(companies.id, users.companyId);
  const [totalRow] = await db.select({ n: count() }).from(users).innerJoin(companies, b2c).where(where);
  const rows = await db
    .select({ user: users, companyName: companies.name })
    .from(users)
    .innerJoin(companies, b2c)
    .where(where)
    .orderBy(desc(users.createdAt), asc(users.id))
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize);
  return { rows, total: Number(totalRow?.n ?? 0) };
}
