import type { FastifyInstance } from 'fastify';
import { ErrorBody } from '@earshot/contracts';
import { z } from 'zod';
import {
  API_KEY_OWNER_PATH,
  ApiKeyOwnerAnswer,
  ApiKeyOwnerBody,
  CREDIT_CHECK_PATH,
  notFound,
  requireInternalToken,
  SpendRequest,
  type ApiKeySource,
  type CreditGate,
  type ZodTypeProvider,
} from '@earshot/kit';

/**
 * Routes for the other services only (distributed mode): on the tenant service's own port under
 * /internal, never mounted in all-in-one and never proxied by the gateway. The caller proves it is
 * one of ours with INTERNAL_API_TOKEN: whose company API key this is (it sends the SHA-256 of a
 * key, never the key), and whether AI work may start (the credit gate).
 */
export async function internalRoutes(
  app: FastifyInstance,
  keys: ApiKeySource,
  gate: CreditGate,
  token: string,
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    API_KEY_OWNER_PATH,
    {
      config: { access: 'public' },
      schema: {
        hide: true,
        body: ApiKeyOwnerBody,
        response: { 200: ApiKeyOwnerAnswer, 401: ErrorBody, 404: ErrorBody },
      },
      onRequest: requireInternalToken(token),
    },
    async (request) => {
      const owner = await keys.owner(request.body.hash);
      if (!owner) throw notFound('API key');
      return owner;
    },
  );

  // 204: go. 402 CREDITS_EXHAUSTED / USER_CAP_REACHED, 409 MODEL_NOT_PRICED: {message, code}.
  r.post(
    CREDIT_CHECK_PATH,
    {
      config: { access: 'public' },
      schema: {
        hide: true,
        body: SpendRequest,
        response: { 204: z.null(), 401: ErrorBody, 402: ErrorBody, 409: ErrorBody },
      },
      onRequest: requireInternalToken(token),
    },
    async (request, reply) => {
      await gate.assertCanSpend(request.body);
      return reply.code(204).send(null);
    },
  );
}
