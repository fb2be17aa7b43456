import { and, eq } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { clients, transcripts } from '../db/schema';

export async function upsertClient(tx: Db, id: string, companyId: string, name: string | null): Promise<void> {
  await tx
    .insert(clients)
    .values({ id, companyId, name })
    .onConflictDoUpdate({ target: clients.id, set: { companyId, name } });
}

export async function removeClient(tx: Db, id: string): Promise<void> {
  await tx.delete(clients).where(eq(clients.id, id));
}

export async function clientExists(db: Db, id: string, companyId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(eq(clients.id, id), eq(clients.companyId, companyId)));
  return row !== undefined;
}

/**
 * Unlinks every transcript of the client; answers what was unlinked (for the events). `remember`:
 * the client was deleted, and its id stays on the recording for an erasure that may follow.
 */
export async function unlinkClient(
  tx: Db,
  clientId: string,
  remember: boolean,
): Promise<{ id: string; fileId: string; companyId: string }[]> {
  return tx
    .update(transcripts)
    .set({ clientId: null, unlinkedClientId: remember ? clientId : null, updatedAt: new Date() })
    .where(eq(transcripts.clientId, clientId))
    .returning({ id: transcripts.id, fileId: transcripts.fileId, companyId: transcripts.companyId });
}
