import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ADMINS,
  AUTH_CODES,
  IdParams,
  SCIM_SCHEMAS,
  ScimErrorBody,
  ScimGroupBody,
  ScimIdParams,
  ScimListQuery,
  ScimPatchBody,
  ScimResource,
  ScimResourceQuery,
  ScimTokenBody,
  ScimTokenCreatedDto,
  ScimTokenDto,
  ScimTokenParams,
  ScimUserBody,
  type ScimErrorType,
} from '@earshot/contracts';
import { HttpError, consoleAddress, identityOf, unauthorized, validationBody, type Identity } from '@earshot/kit';
import type { AuthContext } from '../services/context';
import { resourceTypes, schemas, serviceProviderConfig } from '../services/scim-discovery';
import { ScimError, type ScimService } from '../services/scim';
import type { ScimTokenService } from '../services/scim-tokens';
import { errors } from './schemas';

const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';

/** The token API (a company's ADMIN and the platform administrator) --------------------------- */
export async function scimTokenRoutes(app: FastifyInstance, tokens: ScimTokenService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['scim'];
  r.post(
    '/companies/:id/scim-tokens',
    {
      config: { access: ADMINS, params: { id: 'company' }, example: { body: { name: 'Okta' } } },
      schema: {
        tags,
        summary: "Create a SCIM token for the company's identity provider: the token is in this answer only",
        params: IdParams,
        body: ScimTokenBody,
        response: { 201: ScimTokenCreatedDto, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await tokens.create(identityOf(request), request.params.id, request.body)),
  );
  r.get(
    '/companies/:id/scim-tokens',
    {
      config: { access: ADMINS, params: { id: 'company' } },
      schema: {
        tags,
        summary: "The company's live SCIM tokens with their last use (never the tokens themselves)",
        params: IdParams,
        response: { 200: z.array(ScimTokenDto), ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => tokens.list(identityOf(request), request.params.id),
  );
  r.delete(
    '/companies/:id/scim-tokens/:tokenId',
    {
      // The company is named apart from 'company': the matrix makes a fresh company for a DELETE
      // of one, and the token must belong to the company the path names.
      config: { access: ADMINS, params: { id: 'scimTokenCompany', tokenId: 'scimToken' } },
      schema: {
        tags,
        summary: 'Revoke a SCIM token: from the next request on it answers 401',
        params: ScimTokenParams,
        response: { 204: z.null(), ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await tokens.revoke(identityOf(request), request.params.id, request.params.tokenId);
      return reply.code(204).send(null);
    },
  );
}

/** The SCIM error for anything a SCIM route throws (RFC 7644 §3.12). */
function scimErrorOf(error: FastifyError): { status: number; scimType?: ScimErrorType; detail: string } | null {
  if (hasZodFastifySchemaValidationErrors(error))
    return { status: 400, scimType: 'invalidValue', detail: validationBody(error).message };
  if (error instanceof ScimError) return { status: error.statusCode, scimType: error.scimType, detail: error.message };
  if (error instanceof HttpError) {
    const { statusCode: status, message: detail, code } = error;
    if (code === AUTH_CODES.userLimit) return { status, scimType: 'tooMany', detail };
    // A duplicate e-mail (userName) or externalId in the company.
    if (status === 409 && Array.isArray(error.details)) return { status, scimType: 'uniqueness', detail };
    return { status, ...(status === 400 ? { scimType: 'invalidValue' as const } : {}), detail };
  }
  const status = error.statusCode ?? 500;
  if (status >= 500) return null;
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError)
    return { status: 400, scimType: 'invalidSyntax', detail: 'Malformed JSON body' };
  return { status, detail: error.message };
}

/**
 * `/api/scim/v2` (RFC 7644) for the company of the bearer token presented: its own content type,
 * its own error format and its own authentication, in a scope of their own so no other route changes.
 * Sessions (a person's access token, a cookie) are not SCIM tokens: 401.
 */
export async function scimRoutes(
  app: FastifyInstance,
  ctx: AuthContext,
  tokens: ScimTokenService,
  scim: ScimService,
): Promise<void> {
  await app.register(async (scoped) => {
    scoped.addContentTypeParser(
      'application/scim+json',
      { parseAs: 'string' },
      scoped.getDefaultJsonParser('error', 'error'),
    );
    scoped.setErrorHandler((error: FastifyError, request, reply) => {
      const scimError = scimErrorOf(error);
      if (!scimError) request.log.error({ err: error }, 'SCIM request failed');
      const { status, scimType, detail } = scimError ?? { status: 500, detail: 'Internal error' };
      return reply
        .code(status)
        .type(SCIM_CONTENT_TYPE)
        .send({ schemas: [SCIM_SCHEMAS.error], status: String(status), ...(scimType ? { scimType } : {}), detail });
    });
    const identities = new WeakMap<FastifyRequest, Identity>();
    scoped.addHook('onRequest', async (request) => {
      const [scheme, value] = (request.headers.authorization ?? '').split(' ');
      const identity = scheme?.toLowerCase() === 'bearer' ? await tokens.authenticate(value, request.ip) : null;
      if (!identity) throw unauthorized('A valid SCIM token is required (Authorization: Bearer)');
      identities.set(request, identity);
    });
    scoped.addHook('onSend', async (_request, reply, payload) => {
      reply.type(SCIM_CONTENT_TYPE);
      return payload;
    });
    const caller = (request: FastifyRequest) => identities.get(request)!;
    const base = () => consoleAddress(ctx.config);
    const r = scoped.withTypeProvider<ZodTypeProvider>();
    const tags = ['scim'];
    const failures = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, ScimErrorBody]));
    const single = { access: 'public' as const, params: { id: 'scimUser' } };
    const group = { access: 'public' as const, params: { id: 'scimGroup' } };
    const userExample = {
      userName: 'example.person@example.com',
      name: { givenName: 'Example', familyName: 'Person' },
    };
    const patchExample = { schemas: [SCIM_SCHEMAS.patch], Operations: [{ op: 'replace', value: { active: true } }] };

    r.get(
      '/scim/v2/ServiceProviderConfig',
      {
        config: { access: 'public' },
        schema: { tags, summary: 'What this SCIM service supports', response: { 200: ScimResource, ...failures(401) } },
      },
      async () => serviceProviderConfig(base()),
    );
    r.get(
      '/scim/v2/ResourceTypes',
      {
        config: { access: 'public' },
        schema: { tags, summary: 'User and Group', response: { 200: ScimResource, ...failures(401) } },
      },
      async () => {
        const types = resourceTypes(base());
        return {
          schemas: [SCIM_SCHEMAS.list],
          totalResults: types.length,
          startIndex: 1,
          itemsPerPage: types.length,
          Resources: types,
        };
      },
    );
    r.get(
      '/scim/v2/Schemas',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'The User and Group attributes Earshot keeps',
          response: { 200: ScimResource, ...failures(401) },
        },
      },
      async () => {
        const all = schemas(base());
        return {
          schemas: [SCIM_SCHEMAS.list],
          totalResults: all.length,
          startIndex: 1,
          itemsPerPage: all.length,
          Resources: all,
        };
      },
    );

    r.get(
      '/scim/v2/Users',
      {
        config: { access: 'public', example: { query: { filter: 'userName eq "nobody@example.com"' } } },
        schema: {
          tags,
          summary: 'The company’s people: filter `userName eq`, `externalId eq`; startIndex and count',
          querystring: ScimListQuery,
          response: { 200: ScimResource, ...failures(400, 401) },
        },
      },
      async (request) => scim.listUsers(caller(request), request.query),
    );
    r.post(
      '/scim/v2/Users',
      {
        config: { access: 'public', example: { body: userExample } },
        schema: {
          tags,
          summary: 'Provision a person (role USER, signs in through the company’s provider)',
          body: ScimUserBody,
          response: { 201: ScimResource, ...failures(400, 401, 409) },
        },
      },
      async (request, reply) => reply.code(201).send(await scim.createUser(caller(request), request.body)),
    );
    r.get(
      '/scim/v2/Users/:id',
      {
        config: single,
        schema: {
          tags,
          summary: 'One person',
          params: ScimIdParams,
          querystring: ScimResourceQuery,
          response: { 200: ScimResource, ...failures(401, 404) },
        },
      },
      async (request) => scim.getUser(caller(request), request.params.id, request.query),
    );
    r.put(
      '/scim/v2/Users/:id',
      {
        config: { ...single, example: { body: userExample } },
        schema: {
          tags,
          summary: 'Replace a person’s attributes',
          params: ScimIdParams,
          body: ScimUserBody,
          response: { 200: ScimResource, ...failures(400, 401, 404, 409) },
        },
      },
      async (request) => scim.replaceUser(caller(request), request.params.id, request.body),
    );
    r.patch(
      '/scim/v2/Users/:id',
      {
        config: { ...single, example: { body: patchExample } },
        schema: {
          tags,
          summary: 'Change a person (PatchOp); active false ends their sessions at once',
          params: ScimIdParams,
          body: ScimPatchBody,
          response: { 200: ScimResource, ...failures(400, 401, 404, 409) },
        },
      },
      async (request) => scim.patchUser(caller(request), request.params.id, request.body),
    );
    r.delete(
      '/scim/v2/Users/:id',
      {
        config: single,
        schema: {
          tags,
          summary: 'Remove a person: their sessions end; recordings stay with the company',
          params: ScimIdParams,
          response: { 204: z.null(), ...failures(401, 404, 409) },
        },
      },
      async (request, reply) => {
        await scim.deleteUser(caller(request), request.params.id);
        return reply.code(204).send(null);
      },
    );

    r.get(
      '/scim/v2/Groups',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'The roles as groups (ADMIN, USER, CALLER): filter `displayName eq`',
          querystring: ScimListQuery,
          response: { 200: ScimResource, ...failures(400, 401) },
        },
      },
      async (request) => scim.listGroups(caller(request), request.query),
    );
    r.post(
      '/scim/v2/Groups',
      {
        config: { access: 'public', example: { body: { displayName: 'ADMIN' } } },
        schema: {
          tags,
          summary: 'The groups exist (one per role): 409 for a role, 400 otherwise',
          body: ScimGroupBody,
          response: failures(400, 401, 409),
        },
      },
      async (request) => scim.createGroup(request.body),
    );
    r.get(
      '/scim/v2/Groups/:id',
      {
        config: group,
        schema: {
          tags,
          summary: 'A role and its members',
          params: ScimIdParams,
          querystring: ScimResourceQuery,
          response: { 200: ScimResource, ...failures(401, 404) },
        },
      },
      async (request) => scim.getGroup(caller(request), request.params.id, request.query),
    );
    r.put(
      '/scim/v2/Groups/:id',
      {
        config: { ...group, example: { body: { displayName: 'CALLER', members: [] } } },
        schema: {
          tags,
          summary: 'Set a role’s members (ADMIN, CALLER: those left out become USER)',
          params: ScimIdParams,
          body: ScimGroupBody,
          response: { 200: ScimResource, ...failures(400, 401, 404, 409) },
        },
      },
      async (request) => scim.replaceGroup(caller(request), request.params.id, request.body),
    );
    r.patch(
      '/scim/v2/Groups/:id',
      {
        config: {
          ...group,
          example: { body: { schemas: [SCIM_SCHEMAS.patch], Operations: [{ op: 'add', path: 'members', value: [] }] } },
        },
        schema: {
          tags,
          summary: 'Add or remove members: their role changes and their sessions end',
          params: ScimIdParams,
          body: ScimPatchBody,
          response: { 200: ScimResource, ...failures(400, 401, 404, 409) },
        },
      },
      async (request) => scim.patchGroup(caller(request), request.params.id, request.body),
    );
    r.delete(
      '/scim/v2/Groups/:id',
      {
        config: group,
        schema: {
          tags,
          summary: 'Refused: a role’s group cannot be deleted',
          params: ScimIdParams,
          response: failures(400, 401, 404),
        },
      },
      async (request) => scim.deleteGroup(request.params.id),
    );
  });
}
