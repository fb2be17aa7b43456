import type { FastifyInstance } from 'fastify';
import {
  ERROR_RESPONSES,
  AiModelDropdown,
  AiModelDropdownQuery,
  AiModelDto,
  AiModelList,
  AiModelListQuery,
  AiProviderDto,
  AiProviderList,
  AiProviderListQuery,
  ConnectionTestResult,
  CreateAiModelBody,
  CreateAiProviderBody,
  Dropdown,
  ErrorBody,
  HOST_ONLY,
  IdParams,
  MessageBody,
  ProviderModelList,
  UpdateAiModelBody,
  UpdateAiProviderBody,
} from '@earshot/contracts';
import { identityOf, type ZodTypeProvider } from '@earshot/kit';
import type { ModelService } from '../services/models';
import type { ProviderService } from '../services/providers';

const errors = ERROR_RESPONSES;
const provider = { id: 'aiProvider' };
const model = { id: 'aiModel' };
const tags = ['ai-config'];
/** A private address: the matrix runs with AI_ALLOW_PRIVATE_URLS=true; nothing listens on port 9. */
const EXAMPLE_PROVIDER = { name: 'Example provider', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-example-key' };
const EXAMPLE_MODEL = { providerId: '00000000-0000-4000-8000-000000000000', name: 'example-model', purpose: 'chat' };

/** AI providers and models: the platform administrator's settings. */
export async function aiConfigRoutes(
  app: FastifyInstance,
  providers: ProviderService,
  models: ModelService,
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/ai/config/provider',
    {
      config: { access: HOST_ONLY },
      schema: {
        tags,
        summary: 'List AI providers (keys never included)',
        querystring: AiProviderListQuery,
        response: { 200: AiProviderList, ...errors },
      },
    },
    async (request) => providers.list(request.query),
  );

  r.get(
    '/ai/config/provider/dropdown',
    {
      config: { access: HOST_ONLY },
      schema: { tags, summary: 'Provider ids and names, for pickers', response: { 200: Dropdown, ...errors } },
    },
    async () => providers.dropdown(),
  );

  r.post(
    '/ai/config/provider',
    {
      config: { access: HOST_ONLY, example: { body: EXAMPLE_PROVIDER } },
      schema: {
        tags,
        summary: 'Add a provider; its base URL is checked, its key sealed',
        body: CreateAiProviderBody,
        response: { 201: AiProviderDto, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await providers.create(identityOf(request), request.body)),
  );

  r.get(
    '/ai/config/provider/:id',
    {
      config: { access: HOST_ONLY, params: provider },
      schema: { tags, summary: 'One provider', params: IdParams, response: { 200: AiProviderDto, ...errors } },
    },
    async (request) => providers.get(request.params.id),
  );

  r.patch(
    '/ai/config/provider/:id',
    {
      config: { access: HOST_ONLY, params: provider, example: { body: { enabled: true } } },
      schema: {
        tags,
        summary: 'Change some fields; apiKey null removes the key',
        params: IdParams,
        body: UpdateAiProviderBody,
        response: { 200: AiProviderDto, ...errors },
      },
    },
    async (request) => providers.update(identityOf(request), request.params.id, request.body),
  );

  r.delete(
    '/ai/config/provider/:id',
    {
      config: { access: HOST_ONLY, params: provider },
      schema: {
        tags,
        summary: 'Delete a provider (refused while it has models)',
        params: IdParams,
        response: { 200: MessageBody, 409: ErrorBody, ...errors },
      },
    },
    async (request) => providers.remove(identityOf(request), request.params.id),
  );

  r.post(
    '/ai/config/provider/:id/test',
    {
      config: { access: HOST_ONLY, params: provider },
      schema: {
        tags,
        summary: "Ask the provider for its models; reports the provider's error when it fails",
        params: IdParams,
        response: { 200: ConnectionTestResult, ...errors },
      },
    },
    async (request) => providers.test(request.params.id),
  );

  r.get(
    '/ai/config/providers/:id/models',
    {
      config: { access: HOST_ONLY, params: provider },
      schema: {
        tags,
        summary: "The models the provider lists, to pick from (424 with the provider's words when it fails)",
        params: IdParams,
        response: { 200: ProviderModelList, 424: ErrorBody, ...errors },
      },
    },
    async (request) => providers.models(request.params.id),
  );

  r.get(
    '/ai/config/model',
    {
      config: { access: HOST_ONLY },
      schema: {
        tags,
        summary: 'List models',
        querystring: AiModelListQuery,
        response: { 200: AiModelList, ...errors },
      },
    },
    async (request) => models.list(request.query),
  );

  r.get(
    '/ai/config/model/dropdown',
    {
      config: { access: HOST_ONLY, example: { query: { purpose: 'chat' } } },
      schema: {
        tags,
        summary: 'Enabled models of enabled providers, for pickers',
        querystring: AiModelDropdownQuery,
        response: { 200: AiModelDropdown, ...errors },
      },
    },
    async (request) => models.dropdown(request.query),
  );

  r.post(
    '/ai/config/model',
    {
      config: { access: HOST_ONLY, example: { body: EXAMPLE_MODEL } },
      schema: {
        tags,
        summary: 'Add a model; isDefault takes the mark from the previous default',
        body: CreateAiModelBody,
        response: { 201: AiModelDto, 409: ErrorBody, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await models.create(identityOf(request), request.body)),
  );

  r.get(
    '/ai/config/model/:id',
    {
      config: { access: HOST_ONLY, params: model },
      schema: { tags, summary: 'One model', params: IdParams, response: { 200: AiModelDto, ...errors } },
    },
    async (request) => models.get(request.params.id),
  );

  r.patch(
    '/ai/config/model/:id',
    {
      config: { access: HOST_ONLY, params: model, example: { body: { enabled: true } } },
      schema: {
        tags,
        summary: 'Change some fields of a model',
        params: IdParams,
        body: UpdateAiModelBody,
        response: { 200: AiModelDto, 409: ErrorBody, ...errors },
      },
    },
    async (request) => models.update(identityOf(request), request.params.id, request.body),
  );

  r.delete(
    '/ai/config/model/:id',
    {
      config: { access: HOST_ONLY, params: model },
      schema: { tags, summary: 'Delete a model', params: IdParams, response: { 200: MessageBody, ...errors } },
    },
    async (request) => models.remove(identityOf(request), request.params.id),
  );

  r.post(
    '/ai/config/model/:id/test',
    {
      config: { access: HOST_ONLY, params: model },
      schema: {
        tags,
        summary: "Call the model (chat, embeddings) or find it in the provider's list (speech-to-text)",
        params: IdParams,
        response: { 200: ConnectionTestResult, ...errors },
      },
    },
    async (request) => models.test(request.params.id),
  );
}
