// Calls of the custom GPT screens (HOST_ADMIN, ADMIN), injected into the app's one RTK Query API.
// The knowledge files' upload is not here: it reports progress, so it is an XMLHttpRequest
// (lib/upload.ts, see use-knowledge-upload.ts).
import type { ChatModelsDto } from '@earshot/contracts';
import { api } from '../../lib/api';
import { queryParams } from '../../lib/query-params';
import {
  GPT_PAGE_SIZE,
  type ChatModelOption,
  type CustomGpt,
  type CustomGptBody,
  type CustomGptList,
  type GptListArgs,
  type KnowledgeFile,
  type UserOption,
} from './model';

const withTags = api.enhanceEndpoints({ addTagTypes: ['CustomGpts', 'KnowledgeFiles'] });
export const gptPath = (id: string) => `/custom-gpt/${encodeURIComponent(id)}`;

export const customGptsApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    customGpts: build.query<CustomGptList, GptListArgs>({
      query: ({ page, search }) => ({
        url: '/custom-gpt',
        params: queryParams({ page, pageSize: GPT_PAGE_SIZE, search: search.trim() }),
      }),
      providesTags: ['CustomGpts'],
    }),
    customGpt: build.query<CustomGpt, string>({
      query: (id) => gptPath(id),
      providesTags: (_result, _error, id) => [{ type: 'CustomGpts', id }],
    }),
    createCustomGpt: build.mutation<CustomGpt, CustomGptBody>({
      query: (body) => ({ url: '/custom-gpt', method: 'POST', body }),
      invalidatesTags: ['CustomGpts'],
    }),
    updateCustomGpt: build.mutation<CustomGpt, { id: string; body: CustomGptBody }>({
      query: ({ id, body }) => ({ url: gptPath(id), method: 'PUT', body }),
      invalidatesTags: ['CustomGpts'],
    }),
    duplicateCustomGpt: build.mutation<CustomGpt, string>({
      query: (id) => ({ url: `${gptPath(id)}/duplicate`, method: 'POST' }),
      invalidatesTags: ['CustomGpts'],
    }),
    deleteCustomGpt: build.mutation<{ message: string }, string>({
      query: (id) => ({ url: gptPath(id), method: 'DELETE' }),
      invalidatesTags: ['CustomGpts'],
    }),
    knowledgeFiles: build.query<KnowledgeFile[], string>({
      query: (id) => `${gptPath(id)}/files`,
      providesTags: (_result, _error, id) => [{ type: 'KnowledgeFiles', id }],
    }),
    deleteKnowledgeFile: build.mutation<{ message: string }, { gptId: string; fileId: string }>({
      query: ({ gptId, fileId }) => ({
        url: `${gptPath(gptId)}/files/${encodeURIComponent(fileId)}`,
        method: 'DELETE',
      }),
      // The list's file count changes with it.
      invalidatesTags: (_result, _error, { gptId }) => [{ type: 'KnowledgeFiles', id: gptId }, 'CustomGpts'],
    }),
    /** The chat models people may pick (any admin may read them, unlike the AI configuration). */
    gptChatModels: build.query<ChatModelOption[], void>({
      query: () => '/chat/models',
      transformResponse: (body: ChatModelsDto) => body.models,
    }),
    gptUserOptions: build.query<UserOption[], void>({ query: () => '/users/dropdown' }),
  }),
});

export const {
  useCustomGptsQuery,
  useCustomGptQuery,
  useCreateCustomGptMutation,
  useUpdateCustomGptMutation,
  useDuplicateCustomGptMutation,
  useDeleteCustomGptMutation,
  useKnowledgeFilesQuery,
  useDeleteKnowledgeFileMutation,
  useGptChatModelsQuery,
  useGptUserOptionsQuery,
} = customGptsApi;
