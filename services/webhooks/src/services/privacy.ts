import { isId } from '@earshot/contracts';
import {
  counted,
  inPages,
  onEraseRequested,
  onExportRequested,
  RawJson,
  type ObjectStorage,
  type PrivacyPart,
} from '@earshot/kit';
import type { DeliveryRow } from '../db/schema';
import { deleteDeliveriesOfPerson, deliveriesOfPerson } from '../repositories/deliveries';

/**
 * The webhooks service's part of a person's export: the deliveries whose body names them (a
 * user created, a recording they uploaded, a task given to them, a client contact created), each
 * with the exact body sent and how it went. Endpoints belong to the company, not to a person.
 */
export const webhooksExportPart = (storage: ObjectStorage) =>
  onExportRequested('webhooks', storage, (tx, subject, companyId): PrivacyPart => {
    const rows =
      companyId && isId(subject.id)
        ? inPages((after: DeliveryRow | null, limit) =>
            deliveriesOfPerson(tx, companyId, subject.id, { afterSeq: after?.seq ?? null, limit }),
          )
        : [];
    const counts = {};
    const list = counted(counts, 'deliveries', rows, (row) => ({
      id: row.id,
      endpointId: row.endpointId,
      eventType: row.eventType,
      status: row.status,
      createdAt: row.createdAt.toISOString(),
      // The exact body sent, as it was stored.
      body: new RawJson(row.body),
    }));
    return { data: { deliveries: list }, counts };
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
