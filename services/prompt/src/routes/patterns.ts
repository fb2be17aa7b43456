import type { FastifyInstance } from 'fastify';
import {
  ERROR_RESPONSES,
  ADMINS,
  CreatePatternBody,
  IdParams,
  MessageBody,
  PatternBody,
  PatternDto,
  PatternList,
  PatternListQuery,
} from '@earshot/contracts';
import { identityOf, type ZodTypeProvider } from '@earshot/kit';
import type { PatternService } from '../services/patterns';

const errors = ERROR_RESPONSES;
const pattern = { id: 'pattern' };
const tags = ['analysis-patterns'];

/** Analysis patterns: prompts run together (HOST_ADMIN: global ones; ADMIN: their company's). */
export async function patternRoutes(app: FastifyInstance, patterns: PatternService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/analysis/patterns',
    {
      config: { access: ADMINS },
      schema: {
        tags,
        summary: 'Patterns: an ADMIN sees the global ones and their company’s',
        querystring: PatternListQuery,
        response: { 200: PatternList, ...errors },
      },
    },
    async (request) => patterns.list(identityOf(request), request.query),
  );

  r.post(
    '/analysis/patterns',
    {
      config: { access: ADMINS },
      schema: {
        tags,
        summary: 'Create a pattern of prompts its company may run',
        body: CreatePatternBody,
        response: { 201: PatternDto, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await patterns.create(identityOf(request), request.body)),
  );

  r.get(
    '/analysis/patterns/:id',
    {
      config: { access: ADMINS, params: pattern },
      schema: { tags, summary: 'One pattern', params: IdParams, response: { 200: PatternDto, ...errors } },
    },
    async (request) => patterns.get(identityOf(request), request.params.id),
  );

  r.put(
    '/analysis/patterns/:id',
    {
      config: { access: ADMINS, params: pattern },
      schema: {
        tags,
        summary: 'Replace a pattern (an ADMIN cannot change global ones)',
        params: IdParams,
        body: PatternBody,
        response: { 200: PatternDto, ...errors },
      },
    },
    async (request) => patterns.update(identityOf(request), request.params.id, request.body),
  );

  r.delete(
    '/analysis/patterns/:id',
    {
      config: { access: ADMINS, params: pattern },
      schema: { tags, summary: 'Delete a pattern', params: IdParams, response: { 200: MessageBody, ...errors } },
    },
    async (request) => patterns.remove(identityOf(request), request.params.id),
  );
}
