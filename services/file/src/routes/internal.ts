import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ErrorBody } from '@earshot/contracts';
import {
  COMPANY_AUDIO_KEY_PATH,
  CompanyKeyAnswer,
  notFound,
  requireInternalToken,
  type ZodTypeProvider,
} from '@earshot/kit';
import type { FileEncryption } from '../services/encryption';

/**
 * Routes for the other services only (distributed mode): on the file service's own port under
 * /internal, never mounted in all-in-one (the ring is shared in the process there) and never
 * proxied by the gateway. The caller proves it is one of ours with INTERNAL_API_TOKEN: a
 * company's audio key, still wrapped by the master key, for the transcription service and its
 * workers, which read and rewrite the recordings.
 */
export async function internalRoutes(app: FastifyInstance, encryption: FileEncryption, token: string): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // 404: the company never had a key (its recordings are all plain).
  r.get(
    COMPANY_AUDIO_KEY_PATH,
    {
      config: { access: 'public' },
      schema: {
        hide: true,
        params: z.object({ companyId: z.string().uuid() }),
        response: { 200: CompanyKeyAnswer, 401: ErrorBody, 404: ErrorBody },
      },
      onRequest: requireInternalToken(token),
    },
    async (request) => {
      const key = await encryption.wrappedKey(request.params.companyId);
      if (!key) throw notFound('Company key');
      return key;
    },
  );
}
