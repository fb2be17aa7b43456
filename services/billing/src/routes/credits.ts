import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ADMINS,
  CreditGrantBody,
  CreditGrantDto,
  CreditsDto,
  CreditSettingsBody,
  CreditSettingsDto,
  CreditsQuery,
  ERROR_RESPONSES,
  ErrorBody,
  HOST_ONLY,
  IdParams,
} from '@earshot/contracts';
import { identityOf } from '@earshot/kit';
import type { CreditService } from '../services/credits/credits';

const errors = ERROR_RESPONSES;
const byId = { id: 'company' };

/**
 * A company's credits: the platform administrator grants, adjusts and sets the monthly budget and
 * grant; a company administrator reads their own company's balance and ledger (see README.md).
 */
export async function creditRoutes(app: FastifyInstance, credits: CreditService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/companies/:id/credits',
    {
      config: { access: ADMINS, params: byId },
      schema: {
        tags: ['credits'],
        summary:
          'The company’s balance, reserved credits, monthly settings and ledger (newest first; a company administrator: their own, read-only)',
        params: IdParams,
        querystring: CreditsQuery,
        response: { 200: CreditsDto, ...errors },
      },
    },
    async (request) => credits.credits(identityOf(request), request.params.id, request.query),
  );

  r.post(
    '/companies/:id/credits',
    {
      config: { access: HOST_ONLY, params: byId, example: { body: { amount: 1, reason: 'Route matrix' } } },
      schema: {
        tags: ['credits'],
        summary: 'Grant credits (a positive amount) or adjust the balance (a negative one), with a reason',
        params: IdParams,
        body: CreditGrantBody,
        response: { 201: CreditGrantDto, 409: ErrorBody, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await credits.grant(identityOf(request), request.params.id, request.body)),
  );

  r.put(
    '/companies/:id/credits/settings',
    {
      config: { access: HOST_ONLY, params: byId, example: { body: { monthlyBudget: null, monthlyGrant: null } } },
      schema: {
        tags: ['credits'],
        summary:
          'The company’s monthly budget (alerts at 80 % and 100 %; new work stops at 100 %) and monthly grant (on the 1st, UTC)',
        params: IdParams,
        body: CreditSettingsBody,
        response: { 200: CreditSettingsDto, 409: ErrorBody, ...errors },
      },
    },
    async (request) => credits.saveSettings(identityOf(request), request.params.id, request.body),
  );
}
