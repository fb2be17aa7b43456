import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ERROR_RESPONSES,
  ALL_ROLES,
  AnalysisChatStreamBody,
  AnalysisConversations,
  ChatModelsDto,
  ChatStreamBody,
  ChatStreamParams,
  ConversationDto,
  ConversationList,
  ConversationListQuery,
  CreateConversationBody,
  ErrorBody,
  FeedbackBody,
  FeedbackDto,
  IdParams,
  MessageBody,
  MessageList,
  RenameConversationBody,
} from '@earshot/contracts';
import { identityOf, type ZodTypeProvider } from '@earshot/kit';
import type { ConversationService } from '../services/conversations';
import type { ReplyService, Turn } from '../services/replies';
import { openSse } from './sse';

const errors = ERROR_RESPONSES;
const EXAMPLE_ID = '00000000-0000-4000-8000-000000000000';
/** Everyone signed in chats; what they chat about is theirs alone. */
const access = ALL_ROLES;
const byConversation = { id: 'conversation' };
const streamAnswer = z.string().describe('text/event-stream: start, delta…, then done or error');

export async function chatRoutes(
  app: FastifyInstance,
  conversations: ConversationService,
  replies: ReplyService,
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** Every check passed (`turn`): the reply streams from here. */
  const stream = async (request: FastifyRequest, reply: FastifyReply, turn: Turn) => {
    const sse = openSse(request, reply);
    try {
      await replies.run(turn, sse.sink, sse.signal);
    } finally {
      sse.end();
    }
  };

  r.get(
    '/chat/conversations',
    {
      config: { access },
      schema: { querystring: ConversationListQuery, response: { 200: ConversationList, ...errors } },
    },
    async (request) => conversations.list(identityOf(request), request.query),
  );

  r.post(
    '/chat/conversations',
    {
      config: { access, example: { body: {} } },
      schema: { body: CreateConversationBody, response: { 201: ConversationDto, ...errors } },
    },
    async (request, reply) => reply.code(201).send(await conversations.create(identityOf(request), request.body)),
  );

  r.patch(
    '/chat/conversations/:id',
    {
      config: { access, params: byConversation, example: { body: { title: 'Renamed' } } },
      schema: { params: IdParams, body: RenameConversationBody, response: { 200: ConversationDto, ...errors } },
    },
    async (request) => conversations.rename(identityOf(request), request.params.id, request.body),
  );

  r.delete(
    '/chat/conversations/:id',
    {
      config: { access, params: byConversation },
      schema: { params: IdParams, response: { 200: MessageBody, ...errors } },
    },
    async (request) => conversations.remove(identityOf(request), request.params.id),
  );

  r.get(
    '/chat/conversations/:id/messages',
    {
      config: { access, params: byConversation },
      schema: { params: IdParams, response: { 200: MessageList, ...errors } },
    },
    async (request) => conversations.messages(identityOf(request), request.params.id),
  );

  r.get(
    '/chat/models',
    {
      config: { access },
      schema: { response: { 200: ChatModelsDto, ...errors } },
    },
    async () => conversations.models(),
  );

  r.post(
    '/chat/conversations/:id/chat/stream',
    {
      config: {
        access,
        params: byConversation,
        example: { body: { message: 'What did the customer ask about?', modelId: 'built-in' } },
      },
      schema: {
        params: ChatStreamParams,
        body: ChatStreamBody,
        response: { 200: streamAnswer, ...errors, 402: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) =>
      stream(request, reply, await replies.begin(identityOf(request), request.params.id, request.body)),
  );

  r.get(
    '/chat/conversationsByAnalysis/:id',
    {
      config: { access, params: { id: 'file' } },
      schema: {
        description:
          "The recording (by its file id, as in /transcripts/{id}/analysis) and the caller's conversations about it, newest first",
        params: IdParams,
        response: { 200: AnalysisConversations, ...errors },
      },
    },
    async (request) => conversations.aboutRecording(identityOf(request), request.params.id),
  );

  r.post(
    '/chat/analysis-conversations/chat/stream',
    {
      config: {
        access,
        example: { body: { fileId: EXAMPLE_ID, message: 'Summarize this recording', modelId: 'built-in' } },
      },
      schema: {
        description:
          'A question about one recording, answered from its transcript; without conversationId a new conversation about it is started',
        body: AnalysisChatStreamBody,
        response: { 200: streamAnswer, ...errors, 402: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => stream(request, reply, await replies.beginAbout(identityOf(request), request.body)),
  );

  r.post(
    '/chat/feedback',
    {
      config: { access, example: { body: { messageId: EXAMPLE_ID, rating: 'up' } } },
      schema: { body: FeedbackBody, response: { 200: FeedbackDto, ...errors } },
    },
    async (request) => conversations.feedback(identityOf(request), request.body),
  );
}
