// What the recordings list, the search and the tags page share: the company's tags (the filters'
// tag picker, the tag editor's suggestions, /tags) and the clients' names (the client filter).
// Only lazy page chunks import this file.
import type { TagList } from '@earshot/contracts';
import type { Role } from '@earshot/contracts/constants';
import { api } from '../../lib/api';
import { queryParams } from '../../lib/query-params';
import { rolesForPath } from '../../lib/roles';

export interface ClientOption {
  _id: string;
  name: string;
}

/** Recordings lists are cached under 'Files': a tag rename or delete changes their rows too. */
export const libraryApi = api.enhanceEndpoints({ addTagTypes: ['Tags', 'Files'] }).injectEndpoints({
  endpoints: (build) => ({
    tags: build.query<TagList, string | undefined>({
      query: (companyId) => ({ url: '/tags', params: queryParams({ companyId }) }),
      providesTags: ['Tags'],
    }),
    clientOptions: build.query<ClientOption[], string | undefined>({
      query: (companyId) => ({ url: '/clients/dropdown', params: queryParams({ companyId }) }),
    }),
  }),
});

export const { useTagsQuery, useClientOptionsQuery } = libraryApi;

/**
 * Whether the role may read the company's clients (ADMIN and CALLER; a HOST_ADMIN reads them to
 * support a company): the pages ask for client names only then, so a USER's page makes no call
 * the server refuses with 403.
 */
export function mayReadClients(role: Role | null): boolean {
  return role !== null && (rolesForPath('/clients') ?? []).includes(role);
}
