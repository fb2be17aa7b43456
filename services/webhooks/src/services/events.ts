import { isId, type EventOf, type EventType } from '@earshot/contracts';
import { consoleAddress, on, onCompanyDeleted, type HandlerSpec, type ServiceContext } from '@earshot/kit';
import type { WebhooksConfig } from '../config';
import { deleteCompanyDeliveries, insertDeliveries } from '../repositories/deliveries';
import { deleteCompanyEndpoints, subscribedTo } from '../repositories/endpoints';
import { PAYLOADS, type LinkTo, type Payload } from './payloads';
import { workerOf } from './worker';

/**
 * The events offered as webhooks. Each is handled once (the kit's ledger) in a transaction that
 * also records one delivery per endpoint of the company that asked for its type (idempotent on the
 * event id), so an event applied is an event that will be sent; the worker is woken after commit.
 */
export function subscriptions(ctx: ServiceContext<WebhooksConfig>): HandlerSpec[] {
  const link: LinkTo = (path) => `${consoleAddress(ctx.config)}${path}`;
  const wake = () => workerOf(ctx).wake();
  const handlers = (Object.keys(PAYLOADS) as EventType[]).map((type) =>
    on(
      type,
      async (event, tx) => {
        const payload = (PAYLOADS[type] as (e: EventOf<typeof type>, l: LinkTo) => Payload | null)(event, link);
        const companyId = event.companyId;
        if (!payload || !companyId || !isId(companyId)) return;
        const targets = await subscribedTo(tx, companyId, payload.type);
        const body = JSON.stringify({ type: payload.type, timestamp: event.occurredAt, data: payload.data });
        await insertDeliveries(
          tx,
          targets.map((endpoint) => ({
            endpointId: endpoint.id,
            companyId,
            eventId: event.id,
            eventType: payload.type,
            body,
          })),
        );
      },
      { afterCommit: wake },
    ),
  );
  return [
    ...handlers,
    onCompanyDeleted('webhooks', async (tx, companyId) => {
      await deleteCompanyDeliveries(tx, companyId);
      await deleteCompanyEndpoints(tx, companyId);
    }),
  ];
}
