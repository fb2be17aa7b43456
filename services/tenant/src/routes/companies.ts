import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ERROR_RESPONSES,
  ApiKeyAnswer,
  CompanyAdminConfigDto,
  CompanyCreateBody,
  CompanyDto,
  CompanyListQuery,
  CompanyPage,
  CompanyUpdateBody,
  CompanyWithKeyDto,
  Dropdown,
  ErrorBody,
  HOST_ONLY,
  IdParams,
  MessageBody,
} from '@earshot/contracts';
import { identityOf } from '@earshot/kit';
import type { CompanyService } from '../services/companies';

const errors = ERROR_RESPONSES;
const byId = { id: 'company' };

/** A valid company for the route matrix (a second call is a 409: still past the access check). */
const EXAMPLE_COMPANY = {
  name: 'Example Company',
  code: 'EXAMPLE',
  domain: 'example-co',
  type: 'business',
  status: 'active',
  maxUsers: 10,
  maxStorage: 1024 ** 3,
  language: 'en',
};

/**
 * Companies: platform administrators only (they are the platform's, not a company's), except, on purpose, a company
 * administrator's read-only view of their own company's credits (see README.md).
 */
export async function companyRoutes(app: FastifyInstance, companies: CompanyService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/companies',
    {
      config: { access: HOST_ONLY },
      schema: {
        tags: ['companies'],
        summary: 'List companies',
        querystring: CompanyListQuery,
        response: { 200: CompanyPage, ...errors },
      },
    },
    async (request) => companies.list(identityOf(request), request.query),
  );

  r.get(
    '/companies/dropdown',
    {
      config: { access: HOST_ONLY },
      schema: {
        tags: ['companies'],
        summary: 'Company ids and names, for pickers',
        response: { 200: Dropdown, ...errors },
      },
    },
    async (request) => companies.dropdown(identityOf(request)),
  );

  r.post(
    '/companies',
    {
      config: { access: HOST_ONLY, example: { body: EXAMPLE_COMPANY } },
      schema: {
        tags: ['companies'],
        summary: 'Create a company; the answer holds its API key, shown this once',
        body: CompanyCreateBody,
        response: { 201: CompanyWithKeyDto, 409: ErrorBody, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await companies.create(identityOf(request), request.body)),
  );

  r.get(
    '/companies/:id',
    {
      config: { access: HOST_ONLY, params: byId },
      schema: {
        tags: ['companies'],
        summary: 'One company',
        params: IdParams,
        response: { 200: CompanyDto, ...errors },
      },
    },
    async (request) => companies.get(identityOf(request), request.params.id),
  );

  r.put(
    '/companies/:id',
    {
      config: { access: HOST_ONLY, params: byId, example: { body: { language: 'en' } } },
      schema: {
        tags: ['companies'],
        summary: 'Change some fields of a company',
        params: IdParams,
        body: CompanyUpdateBody,
        response: { 200: CompanyDto, 409: ErrorBody, ...errors },
      },
    },
    async (request) => companies.update(identityOf(request), request.params.id, request.body),
  );

  r.delete(
    '/companies/:id',
    {
      config: { access: HOST_ONLY, params: byId },
      schema: {
        tags: ['companies'],
        summary:
          'Start deleting a company: every service removes its data, then the company goes (refused while it is another company’s partner)',
        params: IdParams,
        response: { 202: MessageBody, 409: ErrorBody, ...errors },
      },
    },
    async (request, reply) => reply.code(202).send(await companies.remove(identityOf(request), request.params.id)),
  );

  r.post(
    '/companies/:id/api-key',
    {
      config: { access: HOST_ONLY, params: byId },
      schema: {
        tags: ['companies'],
        summary:
          'Generate or replace the company’s API key (sent by integrations as X-API-Key); the answer holds it, shown this once, and the old key stops working at once',
        params: IdParams,
        response: { 201: ApiKeyAnswer, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await companies.rotateApiKey(identityOf(request), request.params.id)),
  );

  r.delete(
    '/companies/:id/api-key',
    {
      config: { access: HOST_ONLY, params: byId },
      schema: {
        tags: ['companies'],
        summary: 'Revoke the company’s API key: requests with it are refused from now on',
        params: IdParams,
        response: { 200: MessageBody, ...errors },
      },
    },
    async (request) => companies.revokeApiKey(identityOf(request), request.params.id),
  );

  r.get(
    '/companies/:id/config',
    {
      config: { access: HOST_ONLY, params: byId },
      schema: {
        tags: ['companies'],
        summary: 'Branding, domain, language and feature switches of a company',
        params: IdParams,
        response: { 200: CompanyAdminConfigDto, ...errors },
      },
    },
    async (request) => companies.adminConfig(identityOf(request), request.params.id),
  );
}
