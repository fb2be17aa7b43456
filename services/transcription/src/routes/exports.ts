import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  BulkExportBody,
  ERROR_RESPONSES,
  ErrorBody,
  ExportQuery,
  FileIdParams,
  MEMBERS_AND_SERVICE,
} from '@earshot/contracts';
import { identityOf, type ZodTypeProvider } from '@earshot/kit';
import type { ExportFile, ExportService } from '../services/exports/service';

// 413: the rendering passed its time or memory limit (EXPORT_TIMEOUT_MS, EXPORT_MAX_HEAP_MB).
const errors = { ...ERROR_RESPONSES, 409: ErrorBody, 413: ErrorBody };
const EXAMPLE_ID = '00000000-0000-4000-8000-000000000000';

/** A download, never cached: an export must show the latest edits and speaker names. */
const send = (reply: FastifyReply, file: ExportFile) =>
  reply
    .header('content-type', file.contentType)
    .header('content-disposition', file.disposition)
    .header('cache-control', 'no-store')
    .send(file.body);

/** Exports read what GET /transcripts/file/{fileId} reads: every member and the company's API key (SERVICE). */
export async function exportRoutes(app: FastifyInstance, exports: ExportService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/transcripts/:fileId/export',
    {
      config: { access: MEMBERS_AND_SERVICE, params: { fileId: 'file' }, example: { query: { format: 'txt' } } },
      schema: { params: FileIdParams, querystring: ExportQuery, response: errors },
    },
    async (request, reply) =>
      send(reply as FastifyReply, await exports.one(identityOf(request), { ...request.params, ...request.query })),
  );

  r.post(
    '/transcripts/export',
    {
      config: { access: MEMBERS_AND_SERVICE, example: { body: { fileIds: [EXAMPLE_ID], format: 'txt' } } },
      schema: { body: BulkExportBody, response: errors },
    },
    async (request, reply) => send(reply as FastifyReply, await exports.bundle(identityOf(request), request.body)),
  );
}
