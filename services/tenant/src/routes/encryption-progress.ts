import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ADMINS, CompanyEncryptionProgress, ERROR_RESPONSES, IdParams } from '@earshot/contracts';
import { identityOf } from '@earshot/kit';
import type { EncryptionProgressService } from '../services/encryption-progress';

/** Encryption progress: the same readers as the company's policies (another company: 404). */
export async function encryptionProgressRoutes(
  app: FastifyInstance,
  progress: EncryptionProgressService,
): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/companies/:id/encryption',
    {
      config: { access: ADMINS, params: { id: 'company' } },
      schema: {
        tags: ['companies'],
        summary: 'How far each service has encrypted the company’s existing data since encryption was turned on',
        params: IdParams,
        response: { 200: CompanyEncryptionProgress, ...ERROR_RESPONSES },
      },
    },
    async (request) => progress.get(identityOf(request), request.params.id),
  );
}
