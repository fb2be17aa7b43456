import type { FastifyInstance } from 'fastify';
import { ErrorBody } from '@earshot/contracts';
import {
  API_KEY_OWNER_PATH,
  ApiKeyOwnerAnswer,
  ApiKeyOwnerBody,
  notFound,
  requireInternalToken,
  type ApiKeySource,
  type ZodTypeProvider,
} from '@earshot/kit';

/**
 * Routes for the other services only (distributed mode): on the tenant service's own port under
 * /internal, never mounted in all-in-one and never proxied by the gateway. The caller proves it is
 * one of ours with INTERNAL_API_TOKEN: whose company API key this is (it sends the SHA-256 of a
 * key, never the key).
 */
export async function internalRoutes(app: FastifyInstance, keys: ApiKeySource, token: string): Promise<void> {
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
}
