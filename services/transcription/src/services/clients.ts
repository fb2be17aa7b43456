import { Id, type Actor, type EventOf } from '@earshot/contracts';
import type { Db, NewEvent } from '@earshot/kit';
import * as clientsRepo from '../repositories/clients';
import * as searchRepo from '../repositories/search';

type Emit = (event: NewEvent) => void;

/** client.created / client.updated: remember that the client exists, in which company, and its name (for naming speakers). */
export async function applyClientSaved(tx: Db, event: EventOf<'client.created' | 'client.updated'>): Promise<void> {
  if (Id.safeParse(event.data.id).success && Id.safeParse(event.companyId).success)
    await clientsRepo.upsertClient(tx, event.data.id, event.companyId!, event.data.after?.name ?? null);
}

/**
 * client.deleted: forget the client and unlink its transcripts (never delete them). Each unlink is
 * a transcript.client_linked to null, which the file service and the tenant's recordings follow.
 * The transcripts remember the deleted client's id: when the client is being erased, the
 * privacy.erase_requested that caused this deletion may arrive after it (another topic), and must
 * still find the client's calls.
 */
export async function applyClientDeleted(tx: Db, emit: Emit, event: EventOf<'client.deleted'>): Promise<void> {
  const clientId = event.data.id;
  if (!Id.safeParse(clientId).success) return;
  await clientsRepo.removeClient(tx, clientId);
  await unlinkClient(tx, emit, clientId, event.actor, true);
}

/**
 * Unlinks a client's transcripts, each with its transcript.client_linked to null; how many.
 * `remember`: the client was deleted, its id stays on the transcripts for an erasure to find.
 */
export async function unlinkClient(
  tx: Db,
  emit: Emit,
  clientId: string,
  actor: Actor,
  remember: boolean,
): Promise<number> {
  await searchRepo.unlinkClient(tx, clientId);
  const rows = await clientsRepo.unlinkClient(tx, clientId, remember);
  for (const row of rows) {
    emit({
      type: 'transcript.client_linked',
      companyId: row.companyId,
      actor,
      data: { id: row.id, fileId: row.fileId, before: { clientId }, after: { clientId: null } },
    });
  }
  return rows.length;
}
