import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import {
  ERROR_RESPONSES,
  ALL_ROLES,
  MEMBERS_AND_SERVICE,
  ErrorBody,
  FILE_MESSAGES,
  FileItemDto,
  FileList,
  FileListQuery,
  IdParams,
  UploadedFileDto,
  UploadQuery,
} from '@earshot/contracts';
import { identityOf, unsupported, type ZodTypeProvider } from '@earshot/kit';
import type { FileConfig } from '../config';
import { MULTIPART_OVERHEAD, type FileService } from '../services/files';

const errors = ERROR_RESPONSES;

export async function fileRoutes(app: FastifyInstance, files: FileService, config: FileConfig): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Registered in this service's scope only: other services keep the gateway's JSON body limit.
  await app.register(multipart, { throwFileSizeLimit: false });

  // A company's API key (service account) may upload too: what integrations such as a dialer do.
  r.post(
    '/files/upload',
    {
      config: { access: MEMBERS_AND_SERVICE },
      // The file streams to storage; the JSON body limit does not apply to this route.
      bodyLimit: config.MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD,
      schema: {
        querystring: UploadQuery,
        response: { 201: UploadedFileDto, ...errors, 402: ErrorBody, 413: ErrorBody, 415: ErrorBody },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw unsupported(FILE_MESSAGES.notMultipart);
      const declared = Number(request.headers['content-length']);
      const parts = request.parts({
        limits: {
          fileSize: config.MAX_UPLOAD_BYTES + 1,
          files: 1,
          fields: 4,
          fieldSize: 256,
          fieldNameSize: 100,
          parts: 6,
          headerPairs: 20,
        },
      });
      try {
        const created = await files.upload(identityOf(request), {
          parts,
          companyId: request.query.companyId,
          declaredBytes: Number.isFinite(declared) ? declared : undefined,
        });
        return reply.code(201).send(created);
      } catch (error) {
        // The rest of a rejected body is not worth reading: let the connection go.
        reply.header('connection', 'close');
        throw error;
      }
    },
  );

  r.get(
    '/files',
    {
      config: { access: MEMBERS_AND_SERVICE },
      schema: { querystring: FileListQuery, response: { 200: FileList, ...errors } },
    },
    async (request) => files.list(identityOf(request), request.query),
  );

  r.get(
    '/files/:id',
    {
      config: { access: MEMBERS_AND_SERVICE, params: { id: 'file' } },
      schema: { params: IdParams, response: { 200: FileItemDto, ...errors } },
    },
    async (request) => files.get(identityOf(request), request.params),
  );

  r.get(
    '/uploads/*',
    {
      config: { access: ALL_ROLES, params: { '*': 'uploadPath' } },
      schema: { params: z.object({ '*': z.string().max(1024) }).strict(), response: { ...errors, 416: ErrorBody } },
    },
    async (request: FastifyRequest<{ Params: { '*': string } }>, reply) => {
      const answer = await files.audio(identityOf(request), {
        path: request.params['*'],
        range: request.headers.range,
        headOnly: request.method === 'HEAD',
      });
      reply.code(answer.status).headers(answer.headers);
      if (answer.status === 416)
        return reply.send({ message: 'The requested range is not satisfiable', code: 'RANGE_NOT_SATISFIABLE' });
      return reply.send(answer.body ?? '');
    },
  );
}
