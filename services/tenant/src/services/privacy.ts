import { onExportRequested, type ObjectStorage, type PrivacyPart } from '@earshot/kit';
import { clientWithCalls } from '../repositories/privacy';

/**
 * The tenant service's part of a person's export (issue 25): for a client contact, the client
 * record and the calls linked to it. For a user it answers with nothing yet: the credit spend and
 * sign-in days it keeps per person are not exported.
 */
export const tenantExportPart = (storage: ObjectStorage) => onExportRequested('tenant', storage, async (tx, subject, companyId): Promise<PrivacyPart> => {
  if (subject.kind !== 'client' || !companyId) return { data: {}, counts: {} };
  const found = await clientWithCalls(tx, companyId, subject.id);
  if (!found) return { data: { client: null, calls: [] }, counts: { clients: 0, calls: 0 } };
  const { client: c, calls } = found;
  return {
    data: {
      client: { id: c.id, name: c.name, organisation: c.organisation, email: c.email, phone: c.phone, externalId: c.externalId, notes: c.notes, ownerId: c.ownerId, createdAt: c.createdAt, updatedAt: c.updatedAt },
      calls: calls.map((call) => ({ fileId: call.fileId, name: call.name, status: call.status, duration: call.duration, uploadedAt: call.uploadedAt })),
    },
    counts: { clients: 1, calls: calls.length },
  };
});
