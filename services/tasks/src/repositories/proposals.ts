import { and, eq } from 'drizzle-orm';
import type { ActionItem } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import { proposals, type ProposalRow } from '../db/schema';

/** Keeps a run's proposals (a redelivered event changes nothing: a run completes once). */
export async function saveProposals(
  tx: Db,
  row: { runId: string; companyId: string; fileId: string; items: ActionItem[] },
): Promise<void> {
  await tx.insert(proposals).values(row).onConflictDoNothing();
}

/** A run's proposals, locked: choices from one run are made one request after the other. */
export async function lockProposals(tx: Db, runId: string, companyId: string | null): Promise<ProposalRow | undefined> {
  const [row] = await tx
    .select()
    .from(proposals)
    .where(and(eq(proposals.runId, runId), companyId === null ? undefined : eq(proposals.companyId, companyId)))
    .for('update');
  return row;
}

/** A deleted recording's proposals go with it (what a call said leaves with the call). */
export async function deleteProposalsOfFile(tx: Db, fileId: string): Promise<void> {
  await tx.delete(proposals).where(eq(proposals.fileId, fileId));
}
