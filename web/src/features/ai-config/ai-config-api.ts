// Calls of the AI Configuration page (HOST_ADMIN), injected into the app's one RTK Query API.
import { api } from '../../lib/api';
import {
  LIST_PAGE_SIZE,
  type AiModel,
  type AiModelList,
  type AiProvider,
  type AiProviderList,
  type ConnectionTestResult,
  type ModelBody,
  type ProviderBody,
  type ProviderModelList,
} from './model';

const withTags = api.enhanceEndpoints({ addTagTypes: ['AiProviders', 'AiModels', 'ChatModels'] });
// Models show their provider's name, and chat's model list (and the first-run checklist) depends on both.
const BOTH = ['AiProviders', 'AiModels', 'ChatModels'] as const;
const MODELS_CHANGED = ['AiModels', 'ChatModels'] as const;
const PROVIDERS = '/ai/config/provider';
const MODELS = '/ai/config/model';
const at = (base: string, id: string) => `${base}/${encodeURIComponent(id)}`;

export const aiConfigApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    providers: build.query<AiProviderList, void>({
      query: () => ({ url: PROVIDERS, params: { page: 1, pageSize: LIST_PAGE_SIZE } }),
      providesTags: ['AiProviders'],
    }),
    createProvider: build.mutation<AiProvider, ProviderBody>({
      query: (body) => ({ url: PROVIDERS, method: 'POST', body }),
      invalidatesTags: [...BOTH],
    }),
    updateProvider: build.mutation<AiProvider, { id: string; body: ProviderBody }>({
      query: ({ id, body }) => ({ url: at(PROVIDERS, id), method: 'PATCH', body }),
      invalidatesTags: [...BOTH],
    }),
    deleteProvider: build.mutation<unknown, string>({
      query: (id) => ({ url: at(PROVIDERS, id), method: 'DELETE' }),
      invalidatesTags: [...BOTH],
    }),
    testProvider: build.mutation<ConnectionTestResult, string>({
      query: (id) => ({ url: `${at(PROVIDERS, id)}/test`, method: 'POST' }),
    }),
    /** What the provider itself lists, for the model form's picker (not stored: asked each time the form opens). */
    providerModels: build.query<ProviderModelList, string>({
      query: (id) => `/ai/config/providers/${encodeURIComponent(id)}/models`,
      keepUnusedDataFor: 60,
    }),
    models: build.query<AiModelList, void>({
      query: () => ({ url: MODELS, params: { page: 1, pageSize: LIST_PAGE_SIZE } }),
      providesTags: ['AiModels'],
    }),
    createModel: build.mutation<AiModel, ModelBody>({
      query: (body) => ({ url: MODELS, method: 'POST', body }),
      invalidatesTags: [...MODELS_CHANGED],
    }),
    updateModel: build.mutation<AiModel, { id: string; body: ModelBody }>({
      query: ({ id, body }) => ({ url: at(MODELS, id), method: 'PATCH', body }),
      invalidatesTags: [...MODELS_CHANGED],
    }),
    deleteModel: build.mutation<unknown, string>({
      query: (id) => ({ url: at(MODELS, id), method: 'DELETE' }),
      invalidatesTags: [...MODELS_CHANGED],
    }),
    testModel: build.mutation<ConnectionTestResult, string>({
      query: (id) => ({ url: `${at(MODELS, id)}/test`, method: 'POST' }),
    }),
  }),
});

export const {
  useProvidersQuery,
  useCreateProviderMutation,
  useUpdateProviderMutation,
  useDeleteProviderMutation,
  useTestProviderMutation,
  useProviderModelsQuery,
  useModelsQuery,
  useCreateModelMutation,
  useUpdateModelMutation,
  useDeleteModelMutation,
  useTestModelMutation,
} = aiConfigApi;
