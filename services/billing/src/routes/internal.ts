import type { FastifyInstance } from 'fastify';
import { ErrorBody } from '@earshot/contracts';
import { z } from 'zod';
import {
  BalancesAnswer,
  BalancesBody,
  BILLING_ACCOUNTS_PATH,
  BILLING_BALANCES_PATH,
  BILLING_MONTHLY_USE_PATH,
  CREDIT_CHECK_PATH,
  MonthlyUseAnswer,
  MonthlyUseQuery,
  OpenAccountRequest,
  requireInternalToken,
  SpendRequest,
  type BillingPort,
  type CreditGate,
  type ZodTypeProvider,
} from '@earshot/kit';

/**
 * Routes for the other services only (distributed mode): on the billing service's own port under
 * /internal, never mounted in all-in-one and never proxied by the gateway. The caller proves it is
 * one of ours with INTERNAL_API_TOKEN: whether AI work may start (the credit gate, asked by chat,
 * prompt, file and transcription), and the tenant's calls: open a new company's account, and the
 * balances and monthly use its screens show.
 */
export async function internalRoutes(
  app: FastifyInstance,
  gate: CreditGate,
  accounts: BillingPort,
  token: string,
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const internal = { config: { access: 'public' as const }, onRequest: requireInternalToken(token) };

  // 204: go. 402 CREDITS_EXHAUSTED / USER_CAP_REACHED, 409 MODEL_NOT_PRICED: {message, code}.
  r.post(
    CREDIT_CHECK_PATH,
    {
      ...internal,
      schema: {
        hide: true,
        body: SpendRequest,
        response: { 204: z.null(), 401: ErrorBody, 402: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      await gate.assertCanSpend(request.body);
      return reply.code(204).send(null);
    },
  );

  r.post(
    BILLING_ACCOUNTS_PATH,
    { ...internal, schema: { hide: true, body: OpenAccountRequest, response: { 204: z.null(), 401: ErrorBody } } },
    async (request, reply) => {
      await accounts.openAccount(request.body);
      return reply.code(204).send(null);
    },
  );

  r.post(
    BILLING_BALANCES_PATH,
    { ...internal, schema: { hide: true, body: BalancesBody, response: { 200: BalancesAnswer, 401: ErrorBody } } },
    async (request) => ({ balances: Object.fromEntries(await accounts.balances(request.body.companyIds)) }),
  );

  r.get(
    BILLING_MONTHLY_USE_PATH,
    {
      ...internal,
      schema: { hide: true, querystring: MonthlyUseQuery, response: { 200: MonthlyUseAnswer, 401: ErrorBody } },
    },
    async (request) => ({ items: await accounts.monthlyUse(new Date(request.query.from)) }),
  );
}
