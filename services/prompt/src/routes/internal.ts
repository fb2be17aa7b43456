import type { FastifyInstance } from 'fastify';
import { ProviderKeyAnswer, PROVIDER_KEY_PATH, UnknownProviderError, type ProviderKeySource } from '@earshot/ai';
import { ErrorBody, IdParams } from '@earshot/contracts';
import { notFound, requireInternalToken, type ZodTypeProvider } from '@earshot/kit';

/**
 * Routes for the other services only (distributed mode): on the prompt service's own port under
 * /internal, never mounted in all-in-one and never proxied by the gateway. The caller proves it is
 * one of ours with INTERNAL_API_TOKEN; people's sessions do not open these.
 */
export async function internalRoutes(app: FastifyInstance, keys: ProviderKeySource, token: string): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    PROVIDER_KEY_PATH,
    {
      config: { access: 'public' },
      schema: { hide: true, params: IdParams, response: { 200: ProviderKeyAnswer, 401: ErrorBody, 404: ErrorBody } },
      onRequest: requireInternalToken(token),
    },
    async (request) => {
      try {
        return { apiKey: await keys.key(request.params.id) };
      } catch (error) {
        if (error instanceof UnknownProviderError) throw notFound('Provider');
        throw error;
      }
    },
  );
}
