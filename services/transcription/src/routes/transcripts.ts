import type { FastifyInstance } from 'fastify';
import {
  ERROR_RESPONSES,
  ALL_ROLES,
  MEMBERS_AND_SERVICE,
  DeleteAnswer,
  ErrorBody,
  FileIdParams,
  IdParams,
  LinkClientAnswer,
  LinkClientBody,
  WordEditAnswer,
  PeaksDto,
  StatusList,
  StatusQuery,
  TranscribeAnswer,
  TranscribeBody,
  TranscriptDto,
  WordEditBody,
  WordParams,
  type Role,
} from '@earshot/contracts';
import { identityOf, type ZodTypeProvider } from '@earshot/kit';
import { withEditId } from './edit-id';
import { baseVersionOf, withVersion } from './edit-version';
import type { TranscriptService } from '../services/transcripts';
import type { OriginalsService } from '../services/originals';

const errors = ERROR_RESPONSES;
/** Clients are managed by ADMIN and CALLER; HOST_ADMIN may do anything. */
export const LINK_CLIENT_ROLES: readonly Role[] = ['HOST_ADMIN', 'ADMIN', 'CALLER'];
const EXAMPLE_ID = '00000000-0000-4000-8000-000000000000';

export async function transcriptRoutes(
  app: FastifyInstance,
  transcripts: TranscriptService,
  originals: OriginalsService,
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Reading transcripts and their statuses is open to the company's API key (service account) too.
  r.get(
    '/transcripts/status',
    {
      config: { access: MEMBERS_AND_SERVICE },
      schema: { querystring: StatusQuery, response: { 200: StatusList, ...errors } },
    },
    async (request) => transcripts.statuses(identityOf(request), request.query),
  );

  r.get(
    '/transcripts/file/:fileId',
    {
      config: { access: MEMBERS_AND_SERVICE, params: { fileId: 'file' } },
      schema: { params: FileIdParams, response: { 200: TranscriptDto, ...errors } },
    },
    async (request) => {
      const identity = identityOf(request);
      const transcript = await transcripts.byFile(identity, request.params);
      return { ...transcript, hasOriginal: await originals.readable(identity, transcript) };
    },
  );

  r.get(
    '/transcripts/:fileId/peaks',
    {
      config: { access: ALL_ROLES, params: { fileId: 'file' } },
      schema: { params: FileIdParams, response: { 200: PeaksDto, ...errors } },
    },
    async (request, reply) => {
      const peaks = await transcripts.peaks(identityOf(request), request.params);
      // Peaks change only when the file is transcribed again; the browser may keep them a while.
      reply.header('cache-control', 'private, max-age=300');
      return peaks;
    },
  );

  // Every role may ask; the service lets only the uploader, an ADMIN or a HOST_ADMIN re-run (403 otherwise).
  r.post(
    '/transcripts/transcribe',
    {
      config: { access: ALL_ROLES, example: { body: { fileId: EXAMPLE_ID } } },
      schema: { body: TranscribeBody, response: { 202: TranscribeAnswer, ...errors, 409: ErrorBody } },
    },
    async (request, reply) => reply.code(202).send(await transcripts.transcribe(identityOf(request), request.body)),
  );

  r.put(
    '/transcripts/:transcriptId/metadata/words/:wordId',
    {
      config: {
        access: ALL_ROLES,
        params: { transcriptId: 'transcript', wordId: 'word' },
        example: { body: { text: 'hello', speakerSegmentId: 's-example-0' } },
      },
      schema: { params: WordParams, body: WordEditBody, response: { 200: WordEditAnswer, ...errors, 409: ErrorBody } },
    },
    async (request, reply) => {
      const { editId, version, ...answer } = await transcripts.editWord(identityOf(request), {
        ...request.params,
        ...request.body,
        baseVersion: baseVersionOf(request, request.body),
      });
      return withVersion(reply, version, withEditId(reply, editId, answer));
    },
  );

  r.put(
    '/transcripts/link-client',
    {
      config: { access: LINK_CLIENT_ROLES, example: { body: { transcriptId: EXAMPLE_ID, clientId: null } } },
      schema: { body: LinkClientBody, response: { 200: LinkClientAnswer, ...errors } },
    },
    async (request) => transcripts.linkClient(identityOf(request), request.body),
  );

  // Every role may ask; the service lets only the uploader, an ADMIN or a HOST_ADMIN delete (403 otherwise).
  r.delete(
    '/transcripts/:id',
    {
      config: { access: ALL_ROLES, params: { id: 'file' } },
      schema: { params: IdParams, response: { 200: DeleteAnswer, ...errors } },
    },
    async (request) => transcripts.remove(identityOf(request), request.params),
  );
}
