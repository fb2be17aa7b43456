import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AuditPage, AuditQuery, ErrorBody, HOST_ONLY } from '@earshot/contracts';
import { identityOf } from '@earshot/kit';
import type { AuditLog } from '../services/audit';

/** The audit log: read-only, platform administrators only. There is no route that changes it. */
export async function auditRoutes(app: FastifyInstance, audit: AuditLog): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/audit', {
    config: { access: HOST_ONLY },
    schema: {
      tags: ['audit'],
      summary: 'Audit entries, newest first, filtered by company, actor, type (exact or prefix like "user.") and time',
      querystring: AuditQuery,
      response: { 200: AuditPage, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
    },
  }, async (request) => audit.list(identityOf(request), request.query));
}
