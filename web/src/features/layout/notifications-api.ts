// The header's calls: the bell's latest inbox messages and unread count (own only), and the
// signed-in person's credits cap. Only the lazy header-credits chunk imports this file, so none of
// it weighs on the shell. The inbox pages keep their own endpoints on the same 'Inbox' tag: what
// either marks read shows in the other.
import type { InboxPage, InboxUpdateBody, MyCreditsDto, UnreadDto } from '@earshot/contracts';
import { api } from '../../lib/api';

const withTags = api.enhanceEndpoints({ addTagTypes: ['Inbox'] });

/** The bell opens the latest five. */
export const BELL_SHOWN = 5;

export const notificationsApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    bellInbox: build.query<InboxPage, void>({
      query: () => ({ url: '/inbox', params: { limit: BELL_SHOWN } }),
      providesTags: ['Inbox'],
    }),
    markBellMessageRead: build.mutation<UnreadDto, InboxUpdateBody & { id: string }>({
      query: ({ id, read }) => ({ url: `/inbox/${encodeURIComponent(id)}`, method: 'PUT', body: { read } }),
      invalidatesTags: ['Inbox'],
    }),
    markInboxRead: build.mutation<UnreadDto, void>({
      query: () => ({ url: '/inbox/read-all', method: 'POST' }),
      invalidatesTags: ['Inbox'],
    }),
    myCredits: build.query<MyCreditsDto, void>({ query: () => '/credits/me' }),
  }),
});

export const { useBellInboxQuery, useMarkBellMessageReadMutation, useMarkInboxReadMutation, useMyCreditsQuery } =
  notificationsApi;
