import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ADMINS, CompanyPolicies, ERROR_RESPONSES, ErrorBody, HOST_ONLY, IdParams } from '@earshot/contracts';
import { identityOf } from '@earshot/kit';
import type { PolicyService } from '../services/policies';

const byId = { id: 'company' };
const EXAMPLE = {
  redaction: 'text',
  keepOriginal: false,
  encryption: false,
  retention: { recordingsDays: null, chatsDays: null, auditDays: 365 },
};

/** A company's data policies: the platform administrator sets them, the company's ADMIN reads them (another company: 404). */
export async function policyRoutes(app: FastifyInstance, policies: PolicyService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/companies/:id/policies',
    {
      config: { access: ADMINS, params: byId },
      schema: {
        tags: ['companies'],
        summary: 'The company’s redaction, encryption and retention policies',
        params: IdParams,
        response: { 200: CompanyPolicies, ...ERROR_RESPONSES },
      },
    },
    async (request) => policies.get(identityOf(request), request.params.id),
  );

  r.put(
    '/companies/:id/policies',
    {
      config: { access: HOST_ONLY, params: byId, example: { body: EXAMPLE } },
      schema: {
        tags: ['companies'],
        summary:
          'Set the company’s policies; 409 naming the field when encryption is turned off, turned on without a master key (ENCRYPTION_MASTER_KEY) on the server, or keepOriginal is asked without encryption',
        params: IdParams,
        body: CompanyPolicies,
        response: { 200: CompanyPolicies, 409: ErrorBody, ...ERROR_RESPONSES },
      },
    },
    async (request) => policies.save(identityOf(request), request.params.id, request.body),
  );
}
