// Calls of the clients list and the client profile, injected into the app's one RTK Query API.
// Shapes: services/tenant/README.md (clients), the file service (GET /files), the transcription
// service (PUT /transcripts/link-client).
import type {
  ClientCreateBody,
  ClientDetailDto,
  ClientPage,
  ClientSaved,
  FileList,
  TaskPage,
} from '@earshot/contracts';
import { api } from '../../lib/api';
import { queryParams } from '../../lib/query-params';

export interface ClientFilters {
  search?: string;
  companyId?: string;
  page: number;
}

export type Option = { _id: string; name: string };

export const CLIENTS_PAGE_SIZE = 20;
/** The link picker offers the company's newest recordings (the files API's largest page). */
const LINK_CHOICES = 100;
/** The profile's timeline shows the client's newest tasks (the tasks API's largest page). */
const TIMELINE_TASKS = 100;

// 'Files' is the transcripts list's tag: linking or uploading here changes that list too.
const withTags = api.enhanceEndpoints({ addTagTypes: ['Clients', 'Files'] });

export const clientsApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    clients: build.query<ClientPage, ClientFilters>({
      query: (filters) => ({ url: '/clients', params: queryParams({ ...filters, pageSize: CLIENTS_PAGE_SIZE }) }),
      providesTags: ['Clients'],
    }),
    client: build.query<ClientDetailDto, string>({
      query: (id) => `/clients/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'Clients', id }],
    }),
    /** Owners for the picker and the owner column: ADMIN and HOST_ADMIN only (a CALLER gets 403). */
    owners: build.query<Option[], string | undefined>({
      query: (companyId) => ({ url: '/users/dropdown', params: queryParams({ companyId }) }),
    }),
    createClient: build.mutation<ClientSaved, ClientCreateBody>({
      query: (body) => ({ url: '/clients', method: 'POST', body }),
      invalidatesTags: ['Clients'],
    }),
    updateClient: build.mutation<ClientSaved, { id: string; body: ClientCreateBody }>({
      query: ({ id, body }) => ({ url: `/clients/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: (_result, _error, { id }) => ['Clients', { type: 'Clients', id }],
    }),
    deleteClient: build.mutation<unknown, string>({
      query: (id) => ({ url: `/clients/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Clients', 'Files'],
    }),
    linkableFiles: build.query<FileList, void>({
      query: () => ({ url: '/files', params: { page: 1, pageSize: LINK_CHOICES } }),
      providesTags: ['Files'],
      keepUnusedDataFor: 0,
    }),
    /** The client's tasks for the profile's timeline, newest first (the tasks service). */
    clientTasks: build.query<TaskPage, string>({
      query: (clientId) => ({
        url: '/tasks',
        params: { clientId, sort: 'createdAt', order: 'desc', limit: TIMELINE_TASKS },
      }),
    }),
    linkRecording: build.mutation<unknown, { transcriptId: string; clientId: string | null; profileId: string }>({
      query: ({ transcriptId, clientId }) => ({
        url: '/transcripts/link-client',
        method: 'PUT',
        body: { transcriptId, clientId },
      }),
      invalidatesTags: (_result, _error, { profileId }) => ['Files', { type: 'Clients', id: profileId }],
    }),
  }),
});

export const {
  useClientsQuery,
  useClientQuery,
  useOwnersQuery,
  useCreateClientMutation,
  useUpdateClientMutation,
  useDeleteClientMutation,
  useLinkableFilesQuery,
  useLinkRecordingMutation,
  useClientTasksQuery,
} = clientsApi;
