import type { FastifyInstance } from 'fastify';
import {
  ADMINS,
  ALL_ROLES,
  CompanyQuery,
  ERROR_RESPONSES,
  FileIdParams,
  FileTagsAnswer,
  REDACTED_HEADER,
  TagList,
  TagParams,
  TagRenameBody,
  TagsBody,
} from '@earshot/contracts';
import { identityOf, type ZodTypeProvider } from '@earshot/kit';
import type { TagService } from '../services/tags';

const errors = ERROR_RESPONSES;

export async function tagRoutes(app: FastifyInstance, tags: TagService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Tagging is editing a recording's description: every member who may see it, as word edits.
  r.put(
    '/files/:fileId/tags',
    {
      config: { access: ALL_ROLES, params: { fileId: 'file' }, example: { body: { tags: ['matrix'] } } },
      schema: { params: FileIdParams, body: TagsBody, response: { 200: FileTagsAnswer, ...errors } },
    },
    async (request) => tags.setFileTags(identityOf(request), { ...request.params, ...request.body }),
  );

  r.get(
    '/tags',
    {
      config: { access: ALL_ROLES },
      schema: { querystring: CompanyQuery, response: { 200: TagList, ...errors } },
    },
    async (request) => tags.list(identityOf(request), request.query),
  );

  // Renaming or deleting a tag changes every recording of the company that has it: its ADMIN's.
  r.put(
    '/tags/:name',
    {
      config: { access: ADMINS, params: { name: 'tag' }, example: { body: { name: 'renamed' } } },
      schema: {
        params: TagParams,
        querystring: CompanyQuery,
        body: TagRenameBody,
        response: { 200: TagList, ...errors },
      },
    },
    async (request, reply) => {
      const { list, redacted } = await tags.rename(identityOf(request), {
        ...request.params,
        ...request.query,
        to: request.body.name,
      });
      // The answer is the company's tags: what redaction hid in the new name is told in a header.
      if (redacted) reply.header(REDACTED_HEADER, String(redacted));
      return list;
    },
  );

  r.delete(
    '/tags/:name',
    {
      config: { access: ADMINS, params: { name: 'tag' } },
      schema: { params: TagParams, querystring: CompanyQuery, response: { 200: TagList, ...errors } },
    },
    async (request) => tags.remove(identityOf(request), { ...request.params, ...request.query }),
  );
}
