import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { clientHolds, companyHolds, type HoldRow } from '../db/holds';

export type HoldState = Omit<HoldRow, 'companyId'>;

export async function findClientHold(db: Db, clientId: string): Promise<HoldState | undefined> {
  const [row] = await db.select().from(clientHolds).where(eq(clientHolds.clientId, clientId));
  return row;
}

export async function findCompanyHold(db: Db, companyId: string): Promise<HoldState | undefined> {
  const [row] = await db.select().from(companyHolds).where(eq(companyHolds.companyId, companyId));
  return row;
}

export async function saveClientHold(tx: Db, row: HoldState & { clientId: string; companyId: string }): Promise<void> {
  const { clientId: _id, companyId: _company, ...change } = row;
  await tx.insert(clientHolds).values(row).onConflictDoUpdate({ target: clientHolds.clientId, set: change });
}

export async function saveCompanyHold(tx: Db, row: HoldState & { companyId: string }): Promise<void> {
  const { companyId: _id, ...change } = row;
  await tx.insert(companyHolds).values(row).onConflictDoUpdate({ target: companyHolds.companyId, set: change });
}

/** Whether the client is held now. */
export async function clientHeld(db: Db, clientId: string): Promise<boolean> {
  const [row] = await db
    .select({ held: clientHolds.held })
    .from(clientHolds)
    .where(and(eq(clientHolds.clientId, clientId), eq(clientHolds.held, true)));
  return row !== undefined;
}

/** Whether the company is held now. */
export async function companyHeld(db: Db, companyId: string): Promise<boolean> {
  const [row] = await db
    .select({ held: companyHolds.held })
    .from(companyHolds)
    .where(and(eq(companyHolds.companyId, companyId), eq(companyHolds.held, true)));
  return row !== undefined;
}

/** The holds in force among these clients, by client id (one query for a page of clients). */
export async function activeClientHolds(db: Db, clientIds: string[]): Promise<Map<string, HoldState>> {
  if (clientIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(clientHolds)
    .where(and(inArray(clientHolds.clientId, clientIds), eq(clientHolds.held, true)));
  return new Map(rows.map(({ clientId, companyId: _company, ...hold }) => [clientId, hold]));
}

/** The holds in force among these companies, by company id. */
export async function activeCompanyHolds(db: Db, companyIds: string[]): Promise<Map<string, HoldState>> {
  if (companyIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(companyHolds)
    .where(and(inArray(companyHolds.companyId, companyIds), eq(companyHolds.held, true)));
  return new Map(rows.map(({ companyId, ...hold }) => [companyId, hold]));
}
