import { isId } from '@earshot/contracts';
import { onEraseRequested, onExportRequested, type ObjectStorage, type PrivacyPart } from '@earshot/kit';
import { deleteDeliveriesOfPerson, deliveriesOfPerson } from '../repositories/deliveries';

/**
 * The webhooks service's part of a person's export: the deliveries whose body names them (a
 * user created, a recording they uploaded, a task given to them, a client contact created), each
 * with the exact body sent and how it went. Endpoints belong to the company, not to a person.
 */
export const webhooksExportPart = (storage: ObjectStorage) =>
  onExportRequested('webhooks', storage, async (tx, subject, companyId): Promise<PrivacyPart> => {
    if (!companyId || !isId(subject.id)) return { data: { deliveries: [] }, counts: { deliveries: 0 } };
    const rows = await deliveriesOfPerson(tx, companyId, subject.id);
    const list = rows.map((row) => ({
      id: row.id,
      endpointId: row.endpointId,
      eventType: row.eventType,
      status: row.status,
      createdAt: row.createdAt.toISOString(),
      body: JSON.parse(row.body) as unknown,
    }));
    return { data: { deliveries: list }, counts: { deliveries: list.length } };
  });

/**
 * The webhooks service's part of erasing a person: every delivery naming them goes, sent or
 * still pending (a pending one would otherwise send their name after they were erased).
 */
export const webhooksErasePart = onEraseRequested(
  'webhooks',
  async (tx, _emit, { subject, companyId }): Promise<Record<string, number>> => {
    if (!companyId || !isId(subject.id)) return {};
    return { deliveriesDeleted: await deleteDeliveriesOfPerson(tx, companyId, subject.id) };
  },
);
