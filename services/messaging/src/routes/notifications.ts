import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ALL_ROLES,
  ERROR_RESPONSES,
  IdParams,
  NotificationPage,
  NotificationQuery,
  UnreadDto,
} from '@earshot/contracts';
import { identityOf } from '@earshot/kit';
import type { NotificationService } from '../services/notifications';

const errors = ERROR_RESPONSES;

/** The header's bell: every signed-in person's own notifications (another's id is a 404). */
export async function notificationRoutes(app: FastifyInstance, notifications: NotificationService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/notifications',
    {
      config: { access: ALL_ROLES },
      schema: {
        tags: ['notifications'],
        summary: 'The caller’s notifications, newest first, with the unread count',
        querystring: NotificationQuery,
        response: { 200: NotificationPage, ...errors },
      },
    },
    async (request) => notifications.list(identityOf(request), request.query),
  );

  r.post(
    '/notifications/read-all',
    {
      config: { access: ALL_ROLES },
      schema: {
        tags: ['notifications'],
        summary: 'Mark all of the caller’s notifications read',
        response: { 200: UnreadDto, ...errors },
      },
    },
    async (request) => notifications.markAllRead(identityOf(request)),
  );

  r.post(
    '/notifications/:id/read',
    {
      config: { access: ALL_ROLES, params: { id: 'notification' } },
      schema: {
        tags: ['notifications'],
        summary: 'Mark one of the caller’s notifications read',
        params: IdParams,
        response: { 200: UnreadDto, ...errors },
      },
    },
    async (request) => notifications.markRead(identityOf(request), request.params.id),
  );
}
