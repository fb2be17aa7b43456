import { isId } from '@earshot/contracts';
import {
  counted,
  inPages,
  onEraseRequested,
  onExportRequested,
  type ObjectStorage,
  type PageEnd,
  type PrivacyPart,
} from '@earshot/kit';
import { findClientForUpdate, updateClient } from '../repositories/clients';
import { clientHeld, companyHeld } from '../repositories/holds';
import { callsOfClient, clientOf, forgetMember, lockClientsOwnedBy } from '../repositories/privacy';
import { removeClient, toClientState } from './clients';

/**
 * The tenant service's part of a person's export: for a client contact, the client
 * record and the calls linked to it. For a user it answers with nothing yet: the credit spend and
 * sign-in days it keeps per person are not exported.
 */
export const tenantExportPart = (storage: ObjectStorage) =>
  onExportRequested('tenant', storage, async (tx, subject, companyId): Promise<PrivacyPart> => {
    if (subject.kind !== 'client' || !companyId) return { data: {}, counts: {} };
    const c = await clientOf(tx, companyId, subject.id);
    if (!c) return { data: { client: null, calls: [] }, counts: { clients: 0, calls: 0 } };
    const counts = { clients: 1 };
    const calls = inPages((after: (Pick<PageEnd, 'sortKey'> & { fileId: string }) | null, limit) =>
      callsOfClient(tx, companyId, c.id, { after: after && { id: after.fileId, sortKey: after.sortKey }, limit }),
    );
    return {
      data: {
        client: {
          id: c.id,
          name: c.name,
          organisation: c.organisation,
          email: c.email,
          phone: c.phone,
          externalId: c.externalId,
          notes: c.notes,
          ownerId: c.ownerId,
          createdAt: c.createdAt,
          updatedAt: c.updatedAt,
        },
        calls: counted(counts, 'calls', calls, (call) => ({
          fileId: call.fileId,
          name: call.name,
          status: call.status,
          duration: call.duration,
          uploadedAt: call.uploadedAt,
        })),
      },
      counts,
    };
  });

/**
 * The tenant service's part of erasing a person, in their company only. A client
 * contact: removed the way its ADMIN's delete does (client.deleted: its recordings stay, unlinked,
 * or go with the file service's part), unless a hold reached it after the request was accepted.
 * A user: the clients they own lose their owner (client.updated), and the copies of their
 * membership go. The credit ledger's lines keep the user id they were spent by: they are the
 * company's accounts (like the audit log), and the id names no one once the account is gone.
 */
export const tenantErasePart = onEraseRequested(
  'tenant',
  async (tx, emit, { subject, companyId, actor }): Promise<Record<string, number>> => {
    if (!companyId || !isId(subject.id)) return {};
    if (subject.kind === 'client') {
      const row = await findClientForUpdate(tx, subject.id, companyId);
      if (!row) return { clientsDeleted: 0 };
      if ((await companyHeld(tx, companyId)) || (await clientHeld(tx, row.id))) return { clientsDeleted: 0, held: 1 };
      await removeClient(tx, emit, row, actor);
      return { clientsDeleted: 1 };
    }
    const owned = await lockClientsOwnedBy(tx, companyId, subject.id);
    for (const before of owned) {
      const after = await updateClient(tx, before.id, { ownerId: null });
      emit({
        type: 'client.updated',
        companyId,
        actor,
        data: { id: after.id, before: toClientState(before), after: toClientState(after) },
      });
    }
    return { clientsUnowned: owned.length, memberships: await forgetMember(tx, companyId, subject.id) };
  },
);
