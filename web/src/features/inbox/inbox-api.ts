// The inbox's calls. The header's bell shows the same messages through its own endpoints (a
// feature never imports another); both provide and invalidate the 'Inbox' tag, so marking a
// message read here updates the bell's count, and the other way round.
import type { InboxItemDto, InboxKind, InboxPage, InboxUpdateBody } from '@earshot/contracts';
import { api } from '../../lib/api';
import { queryParams } from '../../lib/query-params';

const withTags = api.enhanceEndpoints({ addTagTypes: ['Inbox'] });

export const inboxApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    inbox: build.query<InboxPage, { kind?: InboxKind; cursor?: string }>({
      query: ({ kind, cursor }) => ({ url: '/inbox', params: queryParams({ kind, cursor }) }),
      providesTags: ['Inbox'],
    }),
    inboxMessage: build.query<InboxItemDto, string>({
      query: (id) => `/inbox/${encodeURIComponent(id)}`,
      providesTags: ['Inbox'],
    }),
    setInboxRead: build.mutation<{ unread: number }, InboxUpdateBody & { id: string }>({
      query: ({ id, read }) => ({ url: `/inbox/${encodeURIComponent(id)}`, method: 'PUT', body: { read } }),
      invalidatesTags: ['Inbox'],
    }),
  }),
});

export const { useInboxQuery, useInboxMessageQuery, useSetInboxReadMutation } = inboxApi;
