import type { FastifyInstance } from 'fastify';
import { ADMINS, ERROR_RESPONSES, HoldBody, HoldDto, IdParams } from '@earshot/contracts';
import { identityOf, type ZodTypeProvider } from '@earshot/kit';
import type { FileHoldService } from '../services/holds';

/** Lifting a hold that is not there changes nothing: what the route matrix sends, so its walk holds nothing. */
export const HOLD_EXAMPLE = { hold: false, reason: 'Matrix check: nothing to lift' };

// Legal hold is a compliance decision: the platform administrator, or the company's ADMIN for their own.
export async function fileHoldRoutes(app: FastifyInstance, holds: FileHoldService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.put(
    '/files/:id/hold',
    {
      config: { access: ADMINS, params: { id: 'file' }, example: { body: HOLD_EXAMPLE } },
      schema: {
        tags: ['files'],
        summary: 'Place (hold: true) or lift (false) a legal hold on a recording; the reason is required both ways',
        params: IdParams,
        body: HoldBody,
        response: { 200: HoldDto, ...ERROR_RESPONSES },
      },
    },
    async (request) => holds.set(identityOf(request), request.params.id, request.body),
  );
}
