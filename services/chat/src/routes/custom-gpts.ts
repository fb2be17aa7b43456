import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import {
  ADMINS,
  ALL_ROLES,
  CreateCustomGptBody,
  CustomGptDropdown,
  CustomGptDto,
  CustomGptList,
  CustomGptListQuery,
  ERROR_RESPONSES,
  ErrorBody,
  GPT_LIMITS,
  GPT_MESSAGES,
  IdParams,
  KnowledgeFileDto,
  KnowledgeFileList,
  KnowledgeFileParams,
  KnowledgeUploadQuery,
  MessageBody,
  UpdateCustomGptBody,
} from '@earshot/contracts';
import { identityOf, unsupported, type ZodTypeProvider } from '@earshot/kit';
import type { CustomGptService } from '../services/custom-gpts';
import type { KnowledgeFileService } from '../services/knowledge/files';

const errors = ERROR_RESPONSES;
/** Room for the multipart framing around the largest file. */
const MULTIPART_OVERHEAD = 64 * 1024;
const byGpt = { id: 'customGpt' };
const byFile = { id: 'customGpt', docId: 'knowledgeFile' };

/** HOST_ADMIN (platform GPTs) and ADMIN (their company's) manage; everyone signed in chats. */
export async function customGptRoutes(
  app: FastifyInstance,
  gpts: CustomGptService,
  files: KnowledgeFileService,
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Registered in this plugin's scope only: the chat routes keep the gateway's JSON body limit.
  await app.register(multipart, { throwFileSizeLimit: false });

  r.get(
    '/custom-gpt',
    {
      config: { access: ADMINS },
      schema: { querystring: CustomGptListQuery, response: { 200: CustomGptList, ...errors } },
    },
    async (request) => gpts.list(identityOf(request), request.query),
  );

  r.post(
    '/custom-gpt',
    {
      config: {
        access: ADMINS,
        example: {
          body: { name: 'Policies', instructions: 'Answer from the policy documents.', visibility: 'company' },
        },
      },
      schema: { body: CreateCustomGptBody, response: { 201: CustomGptDto, ...errors } },
    },
    async (request, reply) => reply.code(201).send(await gpts.create(identityOf(request), request.body)),
  );

  r.get(
    '/custom-gpt/dropdown',
    {
      config: { access: ALL_ROLES },
      schema: {
        description: 'The custom GPTs the caller may chat with',
        response: { 200: CustomGptDropdown, ...errors },
      },
    },
    async (request) => gpts.dropdown(identityOf(request)),
  );

  r.get(
    '/custom-gpt/:id',
    {
      config: { access: ADMINS, params: byGpt },
      schema: { params: IdParams, response: { 200: CustomGptDto, ...errors } },
    },
    async (request) => gpts.get(identityOf(request), request.params.id),
  );

  r.put(
    '/custom-gpt/:id',
    {
      config: { access: ADMINS, params: byGpt, example: { body: { description: 'Updated' } } },
      schema: { params: IdParams, body: UpdateCustomGptBody, response: { 200: CustomGptDto, ...errors } },
    },
    async (request) => gpts.update(identityOf(request), request.params.id, request.body),
  );

  r.delete(
    '/custom-gpt/:id',
    {
      config: { access: ADMINS, params: byGpt },
      schema: { params: IdParams, response: { 200: MessageBody, ...errors } },
    },
    async (request) => files.removeGpt(identityOf(request), request.params.id),
  );

  r.post(
    '/custom-gpt/:id/duplicate',
    {
      config: { access: ADMINS, params: byGpt },
      schema: { params: IdParams, response: { 201: CustomGptDto, ...errors } },
    },
    async (request, reply) => reply.code(201).send(await gpts.duplicate(identityOf(request), request.params.id)),
  );

  r.get(
    '/custom-gpt/:id/files',
    {
      config: { access: ADMINS, params: byGpt },
      schema: { params: IdParams, response: { 200: KnowledgeFileList, ...errors } },
    },
    async (request) => files.list(identityOf(request), request.params.id),
  );

  r.post(
    '/custom-gpt/:id/files',
    {
      config: { access: ADMINS, params: byGpt, example: { query: { type: 'knowledge' } } },
      // The file streams through a bounded reader; the JSON body limit does not apply to this route.
      bodyLimit: GPT_LIMITS.fileMaxBytes + MULTIPART_OVERHEAD,
      schema: {
        description:
          'Upload a knowledge file (multipart field `file`): PDF, DOCX, TXT, Markdown, CSV or HTML, recognised by content; processed in the background',
        params: IdParams,
        querystring: KnowledgeUploadQuery,
        response: { 201: KnowledgeFileDto, ...errors, 409: ErrorBody, 413: ErrorBody, 415: ErrorBody },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw unsupported(GPT_MESSAGES.noFile);
      const part = await request.file({
        limits: {
          fileSize: GPT_LIMITS.fileMaxBytes + 1,
          files: 1,
          fields: 2,
          fieldSize: 256,
          parts: 3,
          headerPairs: 20,
        },
      });
      if (!part || part.fieldname !== 'file') throw unsupported(GPT_MESSAGES.noFile);
      try {
        const created = await files.upload(identityOf(request), request.params.id, {
          stream: part.file,
          fileName: part.filename,
          clientType: part.mimetype,
          truncated: () => part.file.truncated,
        });
        return reply.code(201).send(created);
      } catch (error) {
        // The rest of a rejected body is not worth reading: let the connection go.
        reply.header('connection', 'close');
        throw error;
      }
    },
  );

  // Citations open the original here: those who may chat with the GPT read it, not only its managers.
  r.get(
    '/custom-gpt/:id/files/:docId',
    {
      config: { access: ALL_ROLES, params: byFile },
      schema: {
        description: 'The original knowledge file (HTML as plain text, never rendered)',
        params: KnowledgeFileParams,
        response: { ...errors },
      },
    },
    async (request: FastifyRequest<{ Params: { id: string; docId: string } }>, reply: FastifyReply) => {
      const original = await files.original(identityOf(request), request.params.id, request.params.docId);
      return reply.headers(original.headers).send(original.body);
    },
  );

  r.delete(
    '/custom-gpt/:id/files/:docId',
    {
      config: { access: ADMINS, params: byFile },
      schema: { params: KnowledgeFileParams, response: { 200: MessageBody, ...errors } },
    },
    async (request) => files.remove(identityOf(request), request.params.id, request.params.docId),
  );
}
