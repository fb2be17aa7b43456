import type { FastifyInstance } from 'fastify';
import {
  ERROR_RESPONSES,
  ALL_ROLES,
  EditParams,
  EditsQuery,
  ErrorBody,
  FileIdParams,
  KnownPeople,
  PeopleQuery,
  REDACTED_HEADER,
  RedactedCount,
  ReplaceAnswer,
  ReplaceBody,
  SegmentEditBody,
  SegmentMergeBody,
  SegmentParams,
  SegmentSplitBody,
  SpeakerMergeBody,
  SpeakerParams,
  SpeakerRenameBody,
  TranscriptEditsPage,
  TranscriptPatch,
  TranscriptSpeakers,
  TranscriptUndoStack,
} from '@earshot/contracts';
import { identityOf, type ZodTypeProvider } from '@earshot/kit';
import type { TranscriptEditService } from '../services/edits/service';
import { withEditId } from './edit-id';
import { baseVersionOf, withVersion } from './edit-version';

const errors = ERROR_RESPONSES;
const withConflict = { ...errors, 409: ErrorBody };
const FILE = { fileId: 'file' };
const SEGMENT = { fileId: 'file', segmentId: 'segment' };
/** Every patch says what the company's redaction hid in it (an undo or a merge can bring a number back too). */
const Patch = TranscriptPatch.extend(RedactedCount.shape);

/**
 * Editing a transcript beyond one word. Every member may edit, as every member may correct a word
 * (see the README's object rights); a service account may not. Another company's file is a 404.
 */
export async function editRoutes(app: FastifyInstance, edits: TranscriptEditService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/transcripts/people',
    {
      config: { access: ALL_ROLES },
      schema: { querystring: PeopleQuery, response: { 200: KnownPeople, ...errors } },
    },
    async (request) => edits.people(identityOf(request), request.query),
  );

  r.put(
    '/transcripts/:fileId/speakers/:speakerId',
    {
      config: {
        access: ALL_ROLES,
        params: { fileId: 'file', speakerId: 'speaker' },
        example: { body: { name: 'Matrix speaker' } },
      },
      schema: {
        params: SpeakerParams,
        body: SpeakerRenameBody,
        response: { 200: TranscriptSpeakers, ...withConflict },
      },
    },
    async (request, reply) => {
      const { speakers, editId, redacted, version } = await edits.renameSpeaker(identityOf(request), {
        ...request.params,
        ...request.body,
        baseVersion: baseVersionOf(request, request.body),
      });
      // The answer is the speakers list: what redaction hid in the name is told in a header.
      if (redacted) reply.header(REDACTED_HEADER, String(redacted));
      return withVersion(reply, version, withEditId(reply, editId, speakers));
    },
  );

  r.post(
    '/transcripts/:fileId/speakers/merge',
    {
      config: { access: ALL_ROLES, params: FILE, example: { body: { from: 'speaker_0', into: 'speaker_0' } } },
      schema: { params: FileIdParams, body: SpeakerMergeBody, response: { 200: Patch, ...withConflict } },
    },
    async (request, reply) => {
      const answer = await edits.mergeSpeakers(identityOf(request), {
        ...request.params,
        ...request.body,
        baseVersion: baseVersionOf(request, request.body),
      });
      return withVersion(reply, answer.version, answer);
    },
  );

  r.put(
    '/transcripts/:fileId/segments/:segmentId',
    {
      config: { access: ALL_ROLES, params: SEGMENT, example: { body: { speakerId: 'speaker_0' } } },
      schema: { params: SegmentParams, body: SegmentEditBody, response: { 200: Patch, ...withConflict } },
    },
    async (request, reply) => {
      const answer = await edits.editSegment(identityOf(request), {
        ...request.params,
        ...request.body,
        baseVersion: baseVersionOf(request, request.body),
      });
      return withVersion(reply, answer.version, answer);
    },
  );

  r.post(
    '/transcripts/:fileId/segments/:segmentId/split',
    {
      config: { access: ALL_ROLES, params: SEGMENT, example: { body: { wordId: 'w-example-0' } } },
      schema: { params: SegmentParams, body: SegmentSplitBody, response: { 200: Patch, ...withConflict } },
    },
    async (request, reply) => {
      const answer = await edits.split(identityOf(request), {
        ...request.params,
        ...request.body,
        baseVersion: baseVersionOf(request, request.body),
      });
      return withVersion(reply, answer.version, answer);
    },
  );

  r.post(
    '/transcripts/:fileId/segments/:segmentId/merge',
    {
      config: { access: ALL_ROLES, params: SEGMENT, example: { body: {} } },
      schema: { params: SegmentParams, body: SegmentMergeBody, response: { 200: Patch, ...withConflict } },
    },
    async (request, reply) => {
      const answer = await edits.mergeSegments(identityOf(request), {
        ...request.params,
        baseVersion: baseVersionOf(request, request.body),
      });
      return withVersion(reply, answer.version, answer);
    },
  );

  r.post(
    '/transcripts/:fileId/replace',
    {
      config: { access: ALL_ROLES, params: FILE, example: { body: { find: 'no such words here', replace: 'x' } } },
      schema: {
        params: FileIdParams,
        body: ReplaceBody,
        response: { 200: ReplaceAnswer.extend(RedactedCount.shape), ...withConflict },
      },
    },
    async (request, reply) => {
      const answer = await edits.replace(identityOf(request), {
        ...request.params,
        ...request.body,
        baseVersion: baseVersionOf(request, request.body),
      });
      return withVersion(reply, answer.version, answer);
    },
  );

  r.get(
    '/transcripts/:fileId/edits',
    {
      config: { access: ALL_ROLES, params: FILE },
      schema: { params: FileIdParams, querystring: EditsQuery, response: { 200: TranscriptEditsPage, ...errors } },
    },
    async (request) => edits.history(identityOf(request), { ...request.params, ...request.query }),
  );

  // The caller's own undo and redo stacks, so that the editor's undo survives a reload.
  r.get(
    '/transcripts/:fileId/edits/mine',
    {
      config: { access: ALL_ROLES, params: FILE },
      schema: { params: FileIdParams, response: { 200: TranscriptUndoStack, ...errors } },
    },
    async (request) => edits.undoStack(identityOf(request), request.params),
  );

  r.post(
    '/transcripts/:fileId/edits/:editId/undo',
    {
      config: { access: ALL_ROLES, params: { fileId: 'file', editId: 'transcriptEdit' } },
      schema: { params: EditParams, response: { 200: Patch, ...withConflict } },
    },
    async (request, reply) => {
      const answer = await edits.undo(identityOf(request), { ...request.params, baseVersion: baseVersionOf(request) });
      return withVersion(reply, answer.version, answer);
    },
  );

  r.post(
    '/transcripts/:fileId/edits/:editId/redo',
    {
      config: { access: ALL_ROLES, params: { fileId: 'file', editId: 'transcriptEdit' } },
      schema: { params: EditParams, response: { 200: Patch, ...withConflict } },
    },
    async (request, reply) => {
      const answer = await edits.redo(identityOf(request), { ...request.params, baseVersion: baseVersionOf(request) });
      return withVersion(reply, answer.version, answer);
    },
  );
}
