import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ADMINS, ERROR_RESPONSES, ErrorBody, HOST_ONLY, HoldBody, HoldDto, IdParams } from '@earshot/contracts';
import { identityOf } from '@earshot/kit';
import type { HoldService } from '../services/holds';

/** Lifting a hold that is not there changes nothing: what the route matrix sends, so its walk holds nothing. */
const EXAMPLE = { hold: false, reason: 'Matrix check: nothing to lift' };

/**
 * Legal holds: a client's by the platform administrator or the company's ADMIN (the
 * CALLER who manages clients does not decide what the company must keep); a whole company's by the
 * platform administrator alone. Another company's client is a 404.
 */
export async function holdRoutes(app: FastifyInstance, holds: HoldService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.put(
    '/clients/:id/hold',
    {
      config: { access: ADMINS, params: { id: 'client' }, example: { body: EXAMPLE } },
      schema: {
        tags: ['clients'],
        summary:
          'Place (hold: true) or lift (false) a legal hold on a client and the recordings linked to it; the reason is required both ways',
        params: IdParams,
        body: HoldBody,
        response: { 200: HoldDto, ...ERROR_RESPONSES },
      },
    },
    async (request) => holds.setClient(identityOf(request), request.params.id, request.body),
  );

  r.put(
    '/companies/:id/hold',
    {
      config: { access: HOST_ONLY, params: { id: 'company' }, example: { body: EXAMPLE } },
      schema: {
        tags: ['companies'],
        summary:
          'Place or lift a legal hold on a whole company: while held nothing of it is deleted, the company included',
        params: IdParams,
        body: HoldBody,
        response: { 200: HoldDto, 409: ErrorBody, ...ERROR_RESPONSES },
      },
    },
    async (request) => holds.setCompany(identityOf(request), request.params.id, request.body),
  );
}
