import type { FastifyInstance } from 'fastify';
import { ADMINS, CompanyQueueDto, ERROR_RESPONSES, QueueQuery } from '@earshot/contracts';
import { identityOf, type ZodTypeProvider } from '@earshot/kit';
import type { QueuePositionService } from '../services/queue-position';

export async function queueRoutes(app: FastifyInstance, queue: QueuePositionService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // The company's cap and queue are its ADMIN's to see (HOST_ADMIN names the company).
  r.get(
    '/transcripts/queue',
    {
      config: { access: ADMINS },
      schema: {
        summary:
          "The company's place in the shared transcription queue: cap, running, waiting and each file's position",
        querystring: QueueQuery,
        response: { 200: CompanyQueueDto, ...ERROR_RESPONSES },
      },
    },
    async (request) => queue.ofCompany(identityOf(request), request.query),
  );
}
