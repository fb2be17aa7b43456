import type { FastifyInstance } from 'fastify';
import {
  ERROR_RESPONSES,
  ALL_ROLES,
  AvailablePromptDto,
  AvailablePromptList,
  AvailablePromptQuery,
  ErrorBody,
  HOST_ONLY,
  IdParams,
  MessageBody,
  PageQuery,
  PromptBody,
  PromptDto,
  PromptGetQuery,
  PromptList,
  PromptListQuery,
  PromptVersionList,
} from '@earshot/contracts';
import { identityOf, type ZodTypeProvider } from '@earshot/kit';
import type { PromptService } from '../services/prompts';
import { specMessages } from './spec-messages';

const errors = ERROR_RESPONSES;
const prompt = { id: 'prompt' };
const tags = ['prompts'];
const EXAMPLE_PROMPT = {
  name: 'Call review',
  description: 'Tone and clarity of the agent',
  prompt: 'Rate the agent in this call.\n\n{{transcript}}',
  type: 'transcriptAnalysis',
  expectedFormat: [
    { name: 'clarity_score', type: 'integer', range: '1-10', description: 'How clear the agent was' },
    { name: 'tone', type: 'custom', options: ['positive', 'neutral', 'negative'], description: 'The tone of the call' },
  ],
  scope: 'global',
  isGlobal: true,
};

/** Prompts: the platform administrator's /prompts, and what each person may run. */
export async function promptRoutes(app: FastifyInstance, prompts: PromptService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/prompts',
    {
      config: { access: HOST_ONLY },
      schema: {
        tags,
        summary: 'List prompts (search by name or description, filter by type and scope)',
        querystring: PromptListQuery,
        response: { 200: PromptList, ...errors },
      },
    },
    async (request) => prompts.list(request.query),
  );

  r.get(
    '/prompts/available',
    {
      config: { access: ALL_ROLES },
      schema: {
        tags,
        summary: 'Prompts the caller may run: global ones, their company’s, their own',
        querystring: AvailablePromptQuery,
        response: { 200: AvailablePromptList, ...errors },
      },
    },
    async (request) => prompts.available(identityOf(request), request.query),
  );

  r.get(
    '/prompts/available/:id',
    {
      config: { access: ALL_ROLES, params: prompt },
      schema: {
        tags,
        summary: 'One prompt the caller may run (any other is not found)',
        params: IdParams,
        response: { 200: AvailablePromptDto, ...errors },
      },
    },
    async (request) => prompts.availableOne(identityOf(request), request.params.id),
  );

  r.post(
    '/prompts',
    {
      config: { access: HOST_ONLY, example: { body: EXAMPLE_PROMPT } },
      attachValidation: true,
      preHandler: specMessages,
      schema: {
        tags,
        summary: 'Create a prompt (version 1); an expected-format problem answers with the spec’s message',
        body: PromptBody,
        response: { 201: PromptDto, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await prompts.create(identityOf(request), request.body)),
  );

  r.get(
    '/prompts/:id',
    {
      config: { access: HOST_ONLY, params: prompt },
      schema: {
        tags,
        summary: 'One prompt; ?version=N gives that version’s content',
        params: IdParams,
        querystring: PromptGetQuery,
        response: { 200: PromptDto, ...errors },
      },
    },
    async (request) => prompts.get(request.params.id, request.query.version),
  );

  r.get(
    '/prompts/:id/versions',
    {
      config: { access: HOST_ONLY, params: prompt },
      schema: {
        tags,
        summary: 'Every version of a prompt, newest first',
        params: IdParams,
        querystring: PageQuery.strict(),
        response: { 200: PromptVersionList, ...errors },
      },
    },
    async (request) => prompts.versions(request.params.id, request.query),
  );

  r.put(
    '/prompts/:id',
    {
      config: { access: HOST_ONLY, params: prompt, example: { body: EXAMPLE_PROMPT } },
      attachValidation: true,
      preHandler: specMessages,
      schema: {
        tags,
        summary: 'Replace a prompt; changed content becomes a new version',
        params: IdParams,
        body: PromptBody,
        response: { 200: PromptDto, 409: ErrorBody, ...errors },
      },
    },
    async (request) => prompts.update(identityOf(request), request.params.id, request.body),
  );

  r.delete(
    '/prompts/:id',
    {
      config: { access: HOST_ONLY, params: prompt },
      schema: {
        tags,
        summary: 'Delete a prompt (refused while a pattern runs it); its versions stay for past results',
        params: IdParams,
        response: { 200: MessageBody, 409: ErrorBody, ...errors },
      },
    },
    async (request) => prompts.remove(identityOf(request), request.params.id),
  );
}
