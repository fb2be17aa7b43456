import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ERROR_RESPONSES,
  ClientCreateBody,
  ClientDetailDto,
  ClientDropdownQuery,
  ClientListQuery,
  ClientPage,
  ClientSaved,
  ClientUpdateBody,
  Dropdown,
  ErrorBody,
  IdParams,
  MessageBody,
  type Role,
} from '@earshot/contracts';
import { identityOf } from '@earshot/kit';
import type { ClientService } from '../services/clients';

const errors = ERROR_RESPONSES;
const byId = { id: 'client' };

/** Clients are managed by a company's ADMIN and CALLER: the people who deal with them. */
export const CLIENT_WRITERS: readonly Role[] = ['ADMIN', 'CALLER'];
/** A platform administrator may look at any company's clients, but not change them (see README.md). */
export const CLIENT_READERS: readonly Role[] = ['HOST_ADMIN', 'ADMIN', 'CALLER'];

export async function clientRoutes(app: FastifyInstance, clients: ClientService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/clients',
    {
      config: { access: CLIENT_READERS },
      schema: {
        tags: ['clients'],
        summary: 'List clients (search, pages)',
        querystring: ClientListQuery,
        response: { 200: ClientPage, ...errors },
      },
    },
    async (request) => clients.list(identityOf(request), request.query),
  );

  r.get(
    '/clients/dropdown',
    {
      config: { access: CLIENT_READERS },
      schema: {
        tags: ['clients'],
        summary: 'Client ids and names, for pickers',
        querystring: ClientDropdownQuery,
        response: { 200: Dropdown, ...errors },
      },
    },
    async (request) => clients.dropdown(identityOf(request), request.query),
  );

  r.post(
    '/clients',
    {
      config: { access: CLIENT_WRITERS, example: { body: { name: 'Example Client', organisation: 'Example Ltd' } } },
      schema: {
        tags: ['clients'],
        summary: 'Create a client',
        body: ClientCreateBody,
        response: { 201: ClientSaved, 409: ErrorBody, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await clients.create(identityOf(request), request.body)),
  );

  r.get(
    '/clients/:id',
    {
      config: { access: CLIENT_READERS, params: byId },
      schema: {
        tags: ['clients'],
        summary: 'One client with its recordings',
        params: IdParams,
        response: { 200: ClientDetailDto, ...errors },
      },
    },
    async (request) => clients.get(identityOf(request), request.params.id),
  );

  r.put(
    '/clients/:id',
    {
      config: { access: CLIENT_WRITERS, params: byId, example: { body: { notes: 'Prefers calls in the morning' } } },
      schema: {
        tags: ['clients'],
        summary: 'Change some fields of a client',
        params: IdParams,
        body: ClientUpdateBody,
        response: { 200: ClientSaved, 409: ErrorBody, ...errors },
      },
    },
    async (request) => clients.update(identityOf(request), request.params.id, request.body),
  );

  r.delete(
    '/clients/:id',
    {
      config: { access: CLIENT_WRITERS, params: byId },
      schema: {
        tags: ['clients'],
        summary: 'Delete a client; its recordings stay, unlinked',
        params: IdParams,
        response: { 200: MessageBody, ...errors },
      },
    },
    async (request) => clients.remove(identityOf(request), request.params.id),
  );
}
