import type { FastifyInstance } from 'fastify';
import { ALL_ROLES, ERROR_RESPONSES, SearchQuery, SearchResults } from '@earshot/contracts';
import { identityOf, type ZodTypeProvider } from '@earshot/kit';
import type { SearchService } from '../services/search';

export async function searchRoutes(app: FastifyInstance, search: SearchService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Every member reads every transcript of the company (b2c: their own), so every member searches
  // them; the company's API key reads transcripts by id only, it does not search.
  r.get(
    '/search',
    {
      config: { access: ALL_ROLES, example: { query: { q: 'hello' } } },
      schema: { querystring: SearchQuery, response: { 200: SearchResults, ...ERROR_RESPONSES } },
    },
    async (request) => search.search(identityOf(request), request.query),
  );
}
