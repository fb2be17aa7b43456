import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_RESPONSES, ErrorBody, IdParams, OriginalWordsDto, type Role } from '@earshot/contracts';
import { identityOf, type ZodTypeProvider } from '@earshot/kit';
import type { OriginalsService } from '../services/originals';

/** Unredacted originals are the company's ADMIN's alone: a HOST_ADMIN is refused too. */
export const ORIGINAL_ROLES: readonly Role[] = ['ADMIN'];

export async function originalRoutes(app: FastifyInstance, originals: OriginalsService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/transcripts/:id/original',
    {
      config: { access: ORIGINAL_ROLES, params: { id: 'keptOriginal' } },
      schema: { params: IdParams, response: { 200: OriginalWordsDto, ...ERROR_RESPONSES } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return originals.words(identityOf(request), request.params);
    },
  );

  // No HEAD route: every answer is a recorded read, and HEAD would read nothing.
  r.get(
    '/transcripts/:id/original/audio',
    {
      exposeHeadRoute: false,
      config: { access: ORIGINAL_ROLES, params: { id: 'keptOriginal' } },
      schema: { params: IdParams, response: { ...ERROR_RESPONSES, 416: ErrorBody } },
    },
    async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
      const answer = await originals.audio(identityOf(request), {
        id: request.params.id,
        range: request.headers.range,
      });
      reply.code(answer.status).headers(answer.headers);
      if (answer.status === 416)
        return reply.send({ message: 'The requested range is not satisfiable', code: 'RANGE_NOT_SATISFIABLE' });
      return reply.send(answer.body ?? '');
    },
  );
}
