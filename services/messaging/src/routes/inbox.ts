import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ALL_ROLES,
  ERROR_RESPONSES,
  InboxItemDto,
  InboxPage,
  InboxParams,
  InboxQuery,
  InboxUpdateBody,
  UnreadDto,
} from '@earshot/contracts';
import { identityOf } from '@earshot/kit';
import type { InboxService } from '../services/inbox';

const errors = ERROR_RESPONSES;
const tags = ['inbox'];
const message = { id: 'inboxMessage' };

/** The person's inbox: every signed-in person, their own messages only (another's id is a 404). */
export async function inboxRoutes(app: FastifyInstance, inbox: InboxService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/inbox',
    {
      config: { access: ALL_ROLES },
      schema: {
        tags,
        summary: 'The caller’s notifications and the mail sent to them, newest first, with the unread count',
        querystring: InboxQuery,
        response: { 200: InboxPage, ...errors },
      },
    },
    async (request) => inbox.list(identityOf(request), request.query),
  );

  r.post(
    '/inbox/read-all',
    {
      config: { access: ALL_ROLES },
      schema: {
        tags,
        summary: 'Mark every message of the caller’s inbox read (notifications and mail)',
        response: { 200: UnreadDto, ...errors },
      },
    },
    async (request) => inbox.markAllRead(identityOf(request)),
  );

  r.get(
    '/inbox/:id',
    {
      config: { access: ALL_ROLES, params: message },
      schema: {
        tags,
        summary: 'One of the caller’s messages',
        params: InboxParams,
        response: { 200: InboxItemDto, ...errors },
      },
    },
    async (request) => inbox.get(identityOf(request), request.params.id),
  );

  r.put(
    '/inbox/:id',
    {
      config: { access: ALL_ROLES, params: message, example: { body: { read: true } } },
      schema: {
        tags,
        summary: 'Mark one of the caller’s messages read or unread',
        params: InboxParams,
        body: InboxUpdateBody,
        response: { 200: UnreadDto, ...errors },
      },
    },
    async (request) => inbox.setRead(identityOf(request), request.params.id, request.body.read),
  );
}
