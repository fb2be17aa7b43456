import type { FastifyInstance } from 'fastify';
import { ADMINS, ERROR_RESPONSES, EncryptionProgressDto, IdParams } from '@earshot/contracts';
import { companyScope, identityOf, notFound, type Identity, type ZodTypeProvider } from '@earshot/kit';
import type { FileEncryption } from '../services/encryption';

/** A company's own ADMIN, or the platform administrator; another company is simply not found. */
async function progressOf(
  encryption: FileEncryption,
  identity: Identity,
  companyId: string,
): Promise<EncryptionProgressDto> {
  const scope = companyScope(identity);
  if (scope !== null && scope !== companyId) throw notFound('Company');
  return encryption.status(companyId);
}

// The compliance view of a company's recordings' encryption, beside its policies.
export async function encryptionRoutes(app: FastifyInstance, encryption: FileEncryption): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/files/encryption/:id',
    {
      config: { access: ADMINS, params: { id: 'company' } },
      schema: {
        tags: ['files'],
        summary:
          "Whether a company's new recordings are stored encrypted, and the progress of encrypting those stored before encryption was turned on",
        params: IdParams,
        response: { 200: EncryptionProgressDto, ...ERROR_RESPONSES },
      },
    },
    async (request) => progressOf(encryption, identityOf(request), request.params.id),
  );
}
