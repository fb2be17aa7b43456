// GET /search: keyset pages of recordings with their matching passages.
import type { SearchResults, SearchSort } from '@earshot/contracts';
import { api } from '../../lib/api';
import type { LibraryFilters } from '../../entities/recordings';
import { queryParams } from '../../lib/query-params';

export const SEARCH_PAGE_SIZE = 20;

export interface SearchArgs extends Omit<LibraryFilters, 'status'> {
  q: string;
  sort: SearchSort;
}

export const searchApi = api.injectEndpoints({
  endpoints: (build) => ({
    search: build.infiniteQuery<SearchResults, SearchArgs, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (last) => last.nextCursor,
      },
      query: ({ queryArg, pageParam }) => ({
        url: '/search',
        params: queryParams({ ...queryArg, limit: SEARCH_PAGE_SIZE, cursor: pageParam ?? undefined }),
      }),
      // Edits show in results at once: a new visit asks again.
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useSearchInfiniteQuery } = searchApi;
