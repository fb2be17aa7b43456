import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_LIMITS,
  WEBHOOK_TEST_EVENT,
  type WebhookCreateBody,
  type WebhookCreated,
  type WebhookDeliveryDto,
  type WebhookDeliveryPage,
  type WebhookDeliveryQuery,
  type WebhookDto,
  type WebhookEndpointState,
  type WebhookList,
  type WebhookSecret,
  type WebhookUpdateBody,
} from '@earshot/contracts';
import { actorOf, companyScope, conflict, notFound, type Identity, type ServiceContext } from '@earshot/kit';
import type { WebhooksConfig } from '../config';
import type { DeliveryRow, EndpointRow } from '../db/schema';
import * as deliveries from '../repositories/deliveries';
import * as repo from '../repositories/endpoints';
import { invalid } from './invalid';
import { checkEndpointUrl } from './sender';
import { newSecret } from './signing';
import { workerOf } from './worker';

/** How long a replaced secret keeps signing, so receivers can switch without missing a delivery. */
export const ROTATION_GRACE_MS = 24 * 3600 * 1000;

export function toWebhookDto(row: EndpointRow): WebhookDto {
  return {
    id: row.id,
    companyId: row.companyId,
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    failingSince: row.failingSince?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const stateOf = (row: EndpointRow): WebhookEndpointState => ({
  url: row.url,
  events: row.events,
  description: row.description,
  enabled: row.enabled,
});

export function toDeliveryDto(row: DeliveryRow): WebhookDeliveryDto {
  return {
    id: row.id,
    eventType: row.eventType,
    eventId: row.eventId,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    lastDurationMs: row.lastDurationMs,
    responseExcerpt: row.responseExcerpt,
    nextAttemptAt: row.status === 'pending' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * A company's webhook endpoints: its ADMIN manages its own, the platform administrator any
 * company's (named by companyId). Another company's endpoint is not found. Each change and its
 * (audited) event commit together; the secret is never in an answer but the one that makes it.
 */
export class EndpointService {
  constructor(private readonly ctx: ServiceContext<WebhooksConfig>) {}

  async list(identity: Identity, companyId?: string): Promise<WebhookList> {
    const company = companyScope(identity, companyId);
    if (!company) throw invalid('querystring.companyId', 'the platform administrator names the company');
    return { items: (await repo.listEndpoints(this.ctx.db, company)).map(toWebhookDto) };
  }

  async get(identity: Identity, id: string): Promise<WebhookDto> {
    return toWebhookDto(await this.find(identity, id));
  }

  async create(identity: Identity, body: WebhookCreateBody): Promise<WebhookCreated> {
    const companyId = identity.role === 'HOST_ADMIN' ? body.companyId : identity.companyId;
    if (!companyId) throw invalid('body.companyId', 'the platform administrator names the company');
    const events = this.checkEvents(body.events);
    await this.checkUrl(body.url);
    const secret = newSecret();
    const row = await this.ctx.transact(async (tx, emit) => {
      if ((await repo.countForCreate(tx, companyId)) >= WEBHOOK_LIMITS.endpoints)
        throw conflict(`A company has at most ${WEBHOOK_LIMITS.endpoints} webhook endpoints`);
      const created = await repo.insertEndpoint(tx, {
        companyId,
        url: body.url,
        events,
        description: body.description,
        enabled: body.enabled,
        secret: workerOf(this.ctx).box.seal(secret),
      });
      emit({
        type: 'webhook_endpoint.created',
        companyId,
        actor: actorOf(identity),
        data: { id: created.id, before: null, after: stateOf(created) },
      });
      return created;
    });
    return { ...toWebhookDto(row), secret };
  }

  /** Changes what the body names. Turning an endpoint on again starts its failing streak afresh. */
  async update(identity: Identity, id: string, body: WebhookUpdateBody): Promise<WebhookDto> {
    const events = body.events && this.checkEvents(body.events);
    if (body.url !== undefined) await this.checkUrl(body.url);
    const dto = await this.ctx.transact(async (tx, emit) => {
      const before = await repo.lockEndpoint(tx, id, companyScope(identity));
      if (!before) throw notFound('Webhook endpoint');
      const reenabled = body.enabled === true && !before.enabled;
      const after = await repo.updateEndpoint(tx, id, {
        ...(body.url === undefined ? {} : { url: body.url }),
        ...(events === undefined ? {} : { events }),
        ...(body.description === undefined ? {} : { description: body.description }),
        ...(body.enabled === undefined ? {} : { enabled: body.enabled }),
        ...(reenabled ? { disabledReason: null, failingSince: null } : {}),
      });
      const [was, now] = [stateOf(before), stateOf(after)];
      if (JSON.stringify(was) !== JSON.stringify(now))
        emit({
          type: 'webhook_endpoint.updated',
          companyId: after.companyId,
          actor: actorOf(identity),
          data: { id, before: was, after: now },
        });
      return toWebhookDto(after);
    });
    // Turned on again: what waited for it goes out now.
    if (dto.enabled) workerOf(this.ctx).wake();
    return dto;
  }

  async remove(identity: Identity, id: string): Promise<{ message: string }> {
    await this.ctx.transact(async (tx, emit) => {
      const endpoint = await repo.lockEndpoint(tx, id, companyScope(identity));
      if (!endpoint) throw notFound('Webhook endpoint');
      await repo.deleteEndpoint(tx, id);
      emit({
        type: 'webhook_endpoint.deleted',
        companyId: endpoint.companyId,
        actor: actorOf(identity),
        data: { id, before: stateOf(endpoint), after: null },
      });
    });
    return { message: 'Webhook endpoint deleted' };
  }

  /** A new secret, shown once; the one it replaces still signs for ROTATION_GRACE_MS. */
  async rotate(identity: Identity, id: string): Promise<WebhookSecret> {
    const secret = newSecret();
    await this.ctx.transact(async (tx, emit) => {
      const endpoint = await repo.lockEndpoint(tx, id, companyScope(identity));
      if (!endpoint) throw notFound('Webhook endpoint');
      const previousUntil = new Date(Date.now() + ROTATION_GRACE_MS);
      await repo.updateEndpoint(tx, id, {
        secret: workerOf(this.ctx).box.seal(secret),
        previousSecret: endpoint.secret,
        previousUntil,
      });
      emit({
        type: 'webhook_endpoint.secret_rotated',
        companyId: endpoint.companyId,
        actor: actorOf(identity),
        data: { id, previousValidUntil: previousUntil.toISOString() },
      });
    });
    return { secret };
  }

  /** Queues a `webhook.test` delivery to the endpoint, whatever event types it asked for. */
  async test(identity: Identity, id: string): Promise<{ deliveryId: string }> {
    const endpoint = await this.find(identity, id);
    if (!endpoint.enabled) throw conflict('The endpoint is disabled: enable it to send a test event');
    const eventId = crypto.randomUUID();
    const body = JSON.stringify({
      type: WEBHOOK_TEST_EVENT,
      timestamp: new Date().toISOString(),
      data: { endpointId: endpoint.id, message: 'A test event from Earshot' },
    });
    const delivery = await this.ctx.transact((tx) =>
      deliveries.insertDelivery(tx, {
        endpointId: endpoint.id,
        companyId: endpoint.companyId,
        eventId,
        eventType: WEBHOOK_TEST_EVENT,
        body,
      }),
    );
    workerOf(this.ctx).wake();
    return { deliveryId: delivery.id };
  }

  async deliveries(identity: Identity, id: string, query: WebhookDeliveryQuery): Promise<WebhookDeliveryPage> {
    const endpoint = await this.find(identity, id);
    const { rows, total } = await deliveries.deliveryPage(this.ctx.db, endpoint.id, query);
    return { items: rows.map(toDeliveryDto), total };
  }

  /** Sends a delivery again, from the start of the retry schedule, with the same webhook-id. */
  async resend(identity: Identity, id: string, deliveryId: string): Promise<{ deliveryId: string }> {
    const endpoint = await this.find(identity, id);
    await this.ctx.transact(async (tx) => {
      const delivery = await deliveries.findDelivery(tx, endpoint.id, deliveryId);
      if (!delivery) throw notFound('Webhook delivery');
      await deliveries.requeue(tx, delivery.id);
    });
    workerOf(this.ctx).wake();
    return { deliveryId };
  }

  private async find(identity: Identity, id: string): Promise<EndpointRow> {
    const row = await repo.findEndpoint(this.ctx.db, id, companyScope(identity));
    if (!row) throw notFound('Webhook endpoint');
    return row;
  }

  private checkEvents(events: readonly string[]): string[] {
    const unknown = events.find((type) => !(type in WEBHOOK_EVENT_TYPES));
    if (unknown !== undefined) throw invalid('body.events', `unknown event type "${unknown}"`);
    return [...new Set(events)];
  }

  private async checkUrl(url: string): Promise<void> {
    const refused = await checkEndpointUrl(url, { allowPrivate: this.ctx.config.WEBHOOK_ALLOW_PRIVATE_URLS });
    if (refused) throw invalid('body.url', refused);
  }
}
