import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AuditExportQuery,
  AuditPage,
  AuditProvisioningAnswer,
  AuditProvisioningQuery,
  AuditQuery,
  AuditStreamQuery,
  AuditVerifyQuery,
  AuditVerifyResult,
  ErrorBody,
  ADMINS,
  HOST_ONLY,
} from '@earshot/contracts';
import { identityOf } from '@earshot/kit';
import type { AuditLog } from '../services/audit';
import { toCsv, toJsonLines } from '../services/export';

const EXPORTS = {
  csv: { contentType: 'text/csv; charset=utf-8', write: toCsv },
  jsonl: { contentType: 'application/x-ndjson; charset=utf-8', write: toJsonLines },
} as const;

/** The audit log: read-only, platform administrators only (and a company's ADMIN its provisioning changes). There is no route that changes it. */
export async function auditRoutes(app: FastifyInstance, audit: AuditLog): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Open streams end before the server waits for its connections to close.
  app.addHook('preClose', async () => audit.stream.close());
  r.get(
    '/audit',
    {
      config: { access: HOST_ONLY },
      schema: {
        tags: ['audit'],
        summary:
          'Audit entries, newest first, filtered by company, actor, type (exact or prefix like "user."), target and time; by page or by keyset cursor',
        querystring: AuditQuery,
        response: { 200: AuditPage, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => audit.list(identityOf(request), request.query),
  );

  // The one part of the log a company's ADMIN reads: what their identity provider did to their people.
  r.get(
    '/audit/provisioning',
    {
      config: { access: ADMINS },
      schema: {
        tags: ['audit'],
        summary:
          "The latest changes a company's identity provider made through its SCIM tokens (ADMIN: their own company)",
        querystring: AuditProvisioningQuery,
        response: { 200: AuditProvisioningAnswer, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => audit.provisioning(identityOf(request), request.query),
  );

  r.get(
    '/audit/export',
    {
      config: { access: HOST_ONLY, example: { query: { format: 'csv' } } },
      schema: {
        tags: ['audit'],
        summary: 'The filtered log as a streamed CSV or JSON Lines download, newest first',
        querystring: AuditExportQuery,
        response: { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request, reply) => {
      const format = EXPORTS[request.query.format];
      const batches = audit.export(identityOf(request), request.query);
      const stamp = new Date().toISOString().slice(0, 19).replaceAll(':', '-');
      // A stream is piped as it is, never serialised: the plain reply type says so.
      return (reply as FastifyReply)
        .header('content-type', format.contentType)
        .header('content-disposition', `attachment; filename="audit-log-${stamp}.${request.query.format}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(format.write(batches)));
    },
  );

  r.get(
    '/audit/stream',
    {
      config: { access: HOST_ONLY },
      schema: {
        tags: ['audit'],
        summary:
          "Follows a hash chain as it grows (a company's, or the platform's own without companyId): newline-delimited JSON, one `audit.entry_recorded` payload a line, from fromSeq or from now on; stays open, a bare newline every 15 s while idle",
        querystring: AuditStreamQuery,
        response: { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request, reply) => {
      // The stream ends when the client goes away: the wait for the next entry is cut short.
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      const lines = await audit.stream.open(request.query, gone.signal);
      return (
        (reply as FastifyReply)
          .header('content-type', 'application/x-ndjson; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('x-accel-buffering', 'no')
          // Not kept alive afterwards: a connection that held a stream is closed with it, so a
          // server closing never waits on it as an idle keep-alive.
          .header('connection', 'close')
          .send(Readable.from(lines))
      );
    },
  );

  r.get(
    '/audit/verify',
    {
      config: { access: HOST_ONLY },
      schema: {
        tags: ['audit'],
        summary: "Verifies a hash chain of the log: a company's, or the platform's own without companyId",
        querystring: AuditVerifyQuery,
        response: { 200: AuditVerifyResult, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => audit.chain.verify(identityOf(request), request.query),
  );
}
