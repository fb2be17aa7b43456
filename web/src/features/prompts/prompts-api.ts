// Calls of the prompts screen (HOST_ADMIN), injected into the app's one RTK Query API.
import { api } from '../../lib/api';
import {
  PROMPTS_PAGE_SIZE,
  type Prompt,
  type PromptBodyInput,
  type PromptFilters,
  type PromptList,
  type PromptVersion,
} from './model';

const withTags = api.enhanceEndpoints({ addTagTypes: ['Prompts'] });
const at = (id: string) => `/prompts/${encodeURIComponent(id)}`;

/** A company or a person, for the audience pickers. */
export interface Option {
  _id: string;
  name: string;
}

interface VersionPage {
  items: PromptVersion[];
  total: number;
}

export const promptsApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    prompts: build.query<PromptList, PromptFilters>({
      query: ({ page, search, type, scope }) => ({
        url: '/prompts',
        params: {
          page,
          pageSize: PROMPTS_PAGE_SIZE,
          ...(search.trim() ? { search: search.trim() } : {}),
          ...(type ? { type } : {}),
          ...(scope ? { scope } : {}),
        },
      }),
      providesTags: ['Prompts'],
    }),
    promptVersions: build.query<VersionPage, string>({
      query: (id) => ({ url: `${at(id)}/versions`, params: { page: 1, pageSize: 50 } }),
      providesTags: ['Prompts'],
    }),
    createPrompt: build.mutation<Prompt, PromptBodyInput>({
      query: (body) => ({ url: '/prompts', method: 'POST', body }),
      invalidatesTags: ['Prompts'],
    }),
    updatePrompt: build.mutation<Prompt, { id: string; body: PromptBodyInput }>({
      query: ({ id, body }) => ({ url: at(id), method: 'PUT', body }),
      invalidatesTags: ['Prompts'],
    }),
    deletePrompt: build.mutation<{ message: string }, string>({
      query: (id) => ({ url: at(id), method: 'DELETE' }),
      invalidatesTags: ['Prompts'],
    }),
    promptUsers: build.query<Option[], void>({ query: () => '/users/dropdown' }),
  }),
});

export const {
  usePromptsQuery,
  usePromptVersionsQuery,
  useCreatePromptMutation,
  useUpdatePromptMutation,
  useDeletePromptMutation,
  usePromptUsersQuery,
} = promptsApi;
