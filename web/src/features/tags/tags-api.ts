// /tags: rename (merging into an existing name) and delete, ADMIN and HOST_ADMIN. Both answer the
// company's tags afresh; recordings lists are refetched since their rows show the tags.
import type { TagList } from '@earshot/contracts';
import { libraryApi } from '../../entities/recordings';
import { queryParams } from '../../lib/query-params';

interface TagTarget {
  name: string;
  /** HOST_ADMIN: whose tag. */
  companyId?: string;
}

export const tagsApi = libraryApi.injectEndpoints({
  endpoints: (build) => ({
    renameTag: build.mutation<TagList, TagTarget & { to: string }>({
      query: ({ name, to, companyId }) => ({
        url: `/tags/${encodeURIComponent(name)}`,
        method: 'PUT',
        params: queryParams({ companyId }),
        body: { name: to },
      }),
      invalidatesTags: ['Tags', 'Files'],
    }),
    deleteTag: build.mutation<TagList, TagTarget>({
      query: ({ name, companyId }) => ({
        url: `/tags/${encodeURIComponent(name)}`,
        method: 'DELETE',
        params: queryParams({ companyId }),
      }),
      invalidatesTags: ['Tags', 'Files'],
    }),
  }),
});

export const { useRenameTagMutation, useDeleteTagMutation } = tagsApi;
