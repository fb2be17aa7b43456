import { and, asc, count, eq, isNull, lt, notInArray, or, type SQL } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { files, type FileRow } from '../db/schema';

export interface HoldChange {
  held: boolean;
  reason: string;
  by: string;
  at: Date;
}

/** Places or lifts a file's hold, keeping who did it, when and why. */
export async function setHold(tx: Db, id: string, change: HoldChange): Promise<FileRow> {
  const [row] = await tx
    .update(files)
    .set({ held: change.held, holdReason: change.reason, holdBy: change.by, holdAt: change.at })
    .where(eq(files.id, id))
    .returning();
  return row!;
}

/** A company's files uploaded before `before` that no hold covers: not held themselves, nor linked to a held client. */
function dueWhere(companyId: string, before: Date, heldClients: readonly string[]): SQL {
  const clientFree = heldClients.length
    ? or(isNull(files.clientId), notInArray(files.clientId, [...heldClients]))
    : undefined;
  return and(eq(files.companyId, companyId), lt(files.uploadedAt, before), eq(files.held, false), clientFree)!;
}

/**
 * Up to `limit` of the company's due files that no hold covers, locked (a concurrent run or hold
 * skips them rather than waits), oldest first.
 */
export async function lockDueFiles(
  tx: Db,
  companyId: string,
  before: Date,
  heldClients: readonly string[],
  limit: number,
): Promise<FileRow[]> {
  return tx
    .select()
    .from(files)
    .where(dueWhere(companyId, before, heldClients))
    .orderBy(asc(files.uploadedAt), asc(files.id))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** How many of the company's files are due but kept by a hold (their own or their client's). */
export async function countHeldDue(
  db: Db,
  companyId: string,
  before: Date,
  heldClients: readonly string[],
): Promise<number> {
  const [all] = await db
    .select({ n: count() })
    .from(files)
    .where(and(eq(files.companyId, companyId), lt(files.uploadedAt, before)));
  const [free] = await db
    .select({ n: count() })
    .from(files)
    .where(dueWhere(companyId, before, heldClients));
  return Number(all?.n ?? 0) - Number(free?.n ?? 0);
}
