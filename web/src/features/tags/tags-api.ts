// /tags: rename (merging into an existing name) and delete, ADMIN and HOST_ADMIN. Both answer the
// company's tags afresh; recordings lists are refetched since their rows show the tags. A rename
// also says how many spans the company's redaction hid in the new name (a header: the answer is a list).
import type { TagList } from '@earshot/contracts';
import { REDACTED_HEADER } from '@earshot/contracts/constants';
import { libraryApi } from '../../entities/recordings';
import { queryParams } from '../../lib/query-params';

interface TagTarget {
  name: string;
  /** HOST_ADMIN: whose tag. */
  companyId?: string;
}

const redactedOf = (meta: { response?: Response } | undefined): number =>
  Number(meta?.response?.headers.get(REDACTED_HEADER) ?? 0);

export const tagsApi = libraryApi.injectEndpoints({
  endpoints: (build) => ({
    renameTag: build.mutation<{ tags: TagList; redacted: number }, TagTarget & { to: string }>({
      query: ({ name, to, companyId }) => ({
        url: `/tags/${encodeURIComponent(name)}`,
        method: 'PUT',
        params: queryParams({ companyId }),
        body: { name: to },
      }),
      transformResponse: (tags: TagList, meta) => ({ tags, redacted: redactedOf(meta) }),
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
