import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { ssoDomains, ssoIdentities, ssoProviders, users, type SsoProviderRow, type UserRow } from '../db/schema';

export interface SsoProvider extends SsoProviderRow {
  domains: string[];
}

async function domainsOf(db: Db, companyId: string): Promise<string[]> {
  const rows = await db
    .select({ domain: ssoDomains.domain })
    .from(ssoDomains)
    .where(eq(ssoDomains.companyId, companyId))
    .orderBy(ssoDomains.domain);
  return rows.map((r) => r.domain);
}

export async function findSsoProvider(db: Db, companyId: string): Promise<SsoProvider | undefined> {
  const [row] = await db.select().from(ssoProviders).where(eq(ssoProviders.companyId, companyId));
  return row ? { ...row, domains: await domainsOf(db, companyId) } : undefined;
}

/** The provider that owns an e-mail domain, if any. */
export async function ssoProviderForDomain(db: Db, domain: string): Promise<SsoProvider | undefined> {
  const [owner] = await db.select().from(ssoDomains).where(eq(ssoDomains.domain, domain));
  return owner ? findSsoProvider(db, owner.companyId) : undefined;
}

/** Domains of `domains` already owned by another company. */
export async function domainsOwnedElsewhere(db: Db, companyId: string, domains: string[]): Promise<string[]> {
  if (domains.length === 0) return [];
  const rows = await db
    .select({ domain: ssoDomains.domain })
    .from(ssoDomains)
    .where(and(inArray(ssoDomains.domain, domains), sql`${ssoDomains.companyId} <> ${companyId}`));
  return rows.map((r) => r.domain);
}

export type SsoProviderValues = Omit<SsoProviderRow, 'companyId' | 'createdAt' | 'updatedAt'>;

/** Saves a company's provider and replaces its domains (the domains' primary key keeps them unique). */
export async function saveSsoProvider(
  tx: Db,
  companyId: string,
  values: SsoProviderValues,
  domains: string[],
): Promise<void> {
  await tx
    .insert(ssoProviders)
    .values({ companyId, ...values })
    .onConflictDoUpdate({ target: ssoProviders.companyId, set: { ...values, updatedAt: sql`now()` } });
  await tx.delete(ssoDomains).where(eq(ssoDomains.companyId, companyId));
  await tx.insert(ssoDomains).values(domains.map((domain) => ({ domain, companyId })));
}

/** Turns SSO off: the provider and its domains go; the linked identities stay for a later provider of the same issuer. */
export async function deleteSsoProvider(tx: Db, companyId: string): Promise<boolean> {
  const gone = await tx.delete(ssoProviders).where(eq(ssoProviders.companyId, companyId)).returning();
  return gone.length > 0;
}

/** Everything single sign-on kept for a company that is deleted. */
export async function deleteCompanySso(tx: Db, companyId: string): Promise<void> {
  await tx.delete(ssoProviders).where(eq(ssoProviders.companyId, companyId));
  await tx.delete(ssoIdentities).where(eq(ssoIdentities.companyId, companyId));
}

/** The user a provider's subject is linked to in this company (never another company's). */
export async function linkedUser(
  db: Db,
  companyId: string,
  issuer: string,
  subject: string,
): Promise<UserRow | undefined> {
  const [row] = await db
    .select({ user: users })
    .from(ssoIdentities)
    .innerJoin(users, eq(users.id, ssoIdentities.userId))
    .where(
      and(
        eq(ssoIdentities.companyId, companyId),
        eq(ssoIdentities.issuer, issuer),
        eq(ssoIdentities.subject, subject),
        eq(users.companyId, companyId),
      ),
    );
  return row?.user;
}

export async function linkIdentity(
  tx: Db,
  identity: { companyId: string; issuer: string; subject: string; userId: string },
): Promise<void> {
  await tx
    .insert(ssoIdentities)
    .values({ ...identity, lastSignInAt: new Date() })
    .onConflictDoUpdate({
      target: [ssoIdentities.companyId, ssoIdentities.issuer, ssoIdentities.subject],
      set: { userId: identity.userId, lastSignInAt: new Date() },
    });
}

/** The company's SSO sign-ins, most recent first. */
export async function recentSsoSignIns(db: Db, companyId: string, limit: number) {
  return db
    .select({ identity: ssoIdentities, user: users })
    .from(ssoIdentities)
    .innerJoin(users, eq(users.id, ssoIdentities.userId))
    .where(eq(ssoIdentities.companyId, companyId))
    .orderBy(desc(ssoIdentities.lastSignInAt), desc(ssoIdentities.createdAt))
    .limit(limit);
}
