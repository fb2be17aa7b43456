import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ERROR_RESPONSES,
  ErrorBody,
  IdParams,
  MessageBody,
  WEBHOOK_EVENT_TYPES,
  WebhookCreateBody,
  WebhookCreated,
  WebhookDeliveryPage,
  WebhookDeliveryParams,
  WebhookDeliveryQuery,
  WebhookDto,
  WebhookEventTypeList,
  WebhookList,
  WebhookListQuery,
  WebhookSecret,
  WebhookUpdateBody,
  type Role,
} from '@earshot/contracts';
import { identityOf, type ZodTypeProvider } from '@earshot/kit';
import type { EndpointService } from '../services/endpoints';

const errors = ERROR_RESPONSES;
/** A company's ADMIN for their own company; the platform administrator for any (by companyId). */
const ADMINS: readonly Role[] = ['HOST_ADMIN', 'ADMIN'];
const Queued = z.object({ deliveryId: z.string() });
const EXAMPLE = { url: 'http://127.0.0.1:9/hooks', events: ['transcript.completed'] };

export async function webhookRoutes(app: FastifyInstance, endpoints: EndpointService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/webhook-event-types',
    { config: { access: ADMINS }, schema: { response: { 200: WebhookEventTypeList, ...errors } } },
    async () => Object.entries(WEBHOOK_EVENT_TYPES).map(([type, description]) => ({ type, description })),
  );

  r.get(
    '/webhooks',
    {
      config: { access: ADMINS },
      schema: { querystring: WebhookListQuery, response: { 200: WebhookList, ...errors } },
    },
    async (request) => endpoints.list(identityOf(request), request.query.companyId),
  );

  r.post(
    '/webhooks',
    {
      config: { access: ADMINS, example: { body: EXAMPLE } },
      schema: { body: WebhookCreateBody, response: { 201: WebhookCreated, 409: ErrorBody, ...errors } },
    },
    async (request, reply) => reply.code(201).send(await endpoints.create(identityOf(request), request.body)),
  );

  r.get(
    '/webhooks/:id',
    {
      config: { access: ADMINS, params: { id: 'webhook' } },
      schema: { params: IdParams, response: { 200: WebhookDto, ...errors } },
    },
    async (request) => endpoints.get(identityOf(request), request.params.id),
  );

  r.put(
    '/webhooks/:id',
    {
      config: { access: ADMINS, params: { id: 'webhook' }, example: { body: { description: 'CRM' } } },
      schema: { params: IdParams, body: WebhookUpdateBody, response: { 200: WebhookDto, ...errors } },
    },
    async (request) => endpoints.update(identityOf(request), request.params.id, request.body),
  );

  r.delete(
    '/webhooks/:id',
    {
      config: { access: ADMINS, params: { id: 'webhook' } },
      schema: { params: IdParams, response: { 200: MessageBody, ...errors } },
    },
    async (request) => endpoints.remove(identityOf(request), request.params.id),
  );

  r.post(
    '/webhooks/:id/rotate-secret',
    {
      config: { access: ADMINS, params: { id: 'webhook' } },
      schema: { params: IdParams, response: { 200: WebhookSecret, ...errors } },
    },
    async (request) => endpoints.rotate(identityOf(request), request.params.id),
  );

  r.post(
    '/webhooks/:id/test',
    {
      config: { access: ADMINS, params: { id: 'webhook' } },
      schema: { params: IdParams, response: { 202: Queued, 409: ErrorBody, ...errors } },
    },
    async (request, reply) => reply.code(202).send(await endpoints.test(identityOf(request), request.params.id)),
  );

  r.get(
    '/webhooks/:id/deliveries',
    {
      config: { access: ADMINS, params: { id: 'webhook' } },
      schema: {
        params: IdParams,
        querystring: WebhookDeliveryQuery,
        response: { 200: WebhookDeliveryPage, ...errors },
      },
    },
    async (request) => endpoints.deliveries(identityOf(request), request.params.id, request.query),
  );

  r.post(
    '/webhooks/:id/deliveries/:deliveryId/resend',
    {
      config: { access: ADMINS, params: { id: 'webhook', deliveryId: 'webhookDelivery' } },
      schema: { params: WebhookDeliveryParams, response: { 202: Queued, ...errors } },
    },
    async (request, reply) =>
      reply.code(202).send(await endpoints.resend(identityOf(request), request.params.id, request.params.deliveryId)),
  );
}
