import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CompanyConfigDto, ErrorBody, SubdomainParams } from '@earshot/contracts';
import type { CompanyService } from '../services/companies';

/** Public branding by sub-domain: the console loads it before anyone signs in. */
export async function configRoutes(app: FastifyInstance, companies: CompanyService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/config/company/:subdomain',
    {
      config: { access: 'public', params: { subdomain: 'companyDomain' } },
      schema: {
        tags: ['companies'],
        summary: 'Branding of an active company by its sub-domain (no sign-in needed)',
        params: SubdomainParams,
        response: { 200: CompanyConfigDto, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const config = await companies.publicConfig(request.params.subdomain);
      // Branding changes rarely; a minute of caching spares the API on every page load.
      return reply.header('cache-control', 'public, max-age=60').send(config);
    },
  );
}
