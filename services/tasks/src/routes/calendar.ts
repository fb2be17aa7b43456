import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ALL_ROLES,
  CalendarDto,
  CalendarFeedDto,
  CalendarFeedParams,
  CalendarQuery,
  ERROR_RESPONSES,
} from '@earshot/contracts';
import { identityOf, type ZodTypeProvider } from '@earshot/kit';
import type { CalendarService } from '../services/calendar';

const errors = ERROR_RESPONSES;

export async function calendarRoutes(app: FastifyInstance, calendar: CalendarService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/calendar',
    {
      config: { access: ALL_ROLES, example: { query: { from: '2026-11-01', to: '2026-11-30' } } },
      schema: { querystring: CalendarQuery, response: { 200: CalendarDto, ...errors } },
    },
    async (request) => calendar.range(identityOf(request), request.query),
  );

  r.post(
    '/calendar/feed',
    {
      config: { access: ALL_ROLES },
      schema: { response: { 201: CalendarFeedDto, ...errors } },
    },
    async (request, reply) => reply.code(201).send(await calendar.newFeed(identityOf(request))),
  );

  // Calendar programs fetch it without a session: the secret in the address is the credential
  // (the gateway's per-address rate limit applies, as to every public route). Never cached, and
  // its requests are not logged at info level, where the address (the secret) would be written.
  r.get(
    '/calendar/feed/:token',
    {
      logLevel: 'warn',
      config: { access: 'public', params: { token: 'calendarFeed' } },
      schema: { params: CalendarFeedParams, response: { 200: z.string(), ...errors } },
    },
    async (request, reply) => {
      const text = await calendar.feed(request.params.token);
      return reply.header('cache-control', 'private, no-store').type('text/calendar; charset=utf-8').send(text);
    },
  );
}
