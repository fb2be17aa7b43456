import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ADMINS,
  ALL_ROLES,
  CreditUsageDto,
  CreditUsageQuery,
  ERROR_RESPONSES,
  IdParams,
  MyCreditsDto,
  MyCreditUsageQuery,
  StatementDto,
  StatementQuery,
} from '@earshot/contracts';
import { identityOf } from '@earshot/kit';
import type { StatementService } from '../services/statement';
import type { UsageService } from '../services/usage';

const errors = ERROR_RESPONSES;
const byId = { id: 'company' };

/** A download: never cached (the figures change with every charge), saved under its name. */
const download = (reply: FastifyReply, contentType: string, filename: string) =>
  reply
    .header('content-type', contentType)
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store');

/**
 * Usage of credits and monthly statements. A company's: its platform administrator any, its ADMIN
 * their own (another company is a 404). One's own cap, spend and usage: every signed-in person.
 */
export async function usageRoutes(
  app: FastifyInstance,
  usage: UsageService,
  statements: StatementService,
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/companies/:id/usage',
    {
      config: { access: ADMINS, params: byId },
      schema: {
        tags: ['credits'],
        summary:
          'Credits the company used, by day, person, model or engine and feature (UTC days; default the current month)',
        params: IdParams,
        querystring: CreditUsageQuery,
        response: { 200: CreditUsageDto, ...errors },
      },
    },
    async (request) => usage.companyUsage(identityOf(request), request.params.id, request.query),
  );

  r.get(
    '/companies/:id/usage.csv',
    {
      config: { access: ADMINS, params: byId },
      schema: {
        tags: ['credits'],
        summary:
          'The same period as a CSV download for chargeback: one line per ledger charge (date,user,feature,model,event,unit,quantity,unit_price,credits; credits = quantity × unit_price, rounded half up to 4 decimals)',
        params: IdParams,
        querystring: CreditUsageQuery,
        response: errors,
      },
    },
    async (request, reply) => {
      const { filename, lines } = await usage.companyCsv(identityOf(request), request.params.id, request.query);
      // A stream is piped as it is, never serialised: the plain reply type says so.
      return download(reply as FastifyReply, 'text/csv; charset=utf-8', filename).send(Readable.from(lines));
    },
  );

  r.get(
    '/credits/me',
    {
      config: { access: ALL_ROLES },
      schema: {
        tags: ['credits'],
        summary:
          'The caller’s monthly cap, spend this month and what remains; the company’s balance for its administrators',
        response: { 200: MyCreditsDto, ...errors },
      },
    },
    async (request) => usage.me(identityOf(request)),
  );

  r.get(
    '/credits/me/usage',
    {
      config: { access: ALL_ROLES },
      schema: {
        tags: ['credits'],
        summary: 'The caller’s own usage of credits (UTC days; default the current month)',
        querystring: MyCreditUsageQuery,
        response: { 200: CreditUsageDto, ...errors },
      },
    },
    async (request) => usage.myUsage(identityOf(request), request.query),
  );

  r.get(
    '/companies/:id/statement',
    {
      config: { access: ADMINS, params: byId },
      schema: {
        tags: ['credits'],
        summary:
          'The monthly statement from the ledger: opening balance, grants, adjustments, charges by feature, model, unit and unit price, closing balance',
        params: IdParams,
        querystring: StatementQuery,
        response: { 200: StatementDto, ...errors },
      },
    },
    async (request) => statements.statement(identityOf(request), request.params.id, request.query),
  );

  r.get(
    '/companies/:id/statement.pdf',
    {
      config: { access: ADMINS, params: byId },
      schema: {
        tags: ['credits'],
        summary: 'The monthly statement as a PDF download',
        params: IdParams,
        querystring: StatementQuery,
        response: errors,
      },
    },
    async (request, reply) => {
      const { filename, body } = await statements.pdf(identityOf(request), request.params.id, request.query);
      return download(reply as FastifyReply, 'application/pdf', filename).send(body);
    },
  );
}
