// The header's calls: in-app notifications (own only) and the signed-in person's credits cap.
// Only the lazy header-credits chunk imports this file, so none of it weighs on the shell.
import type { MyCreditsDto, NotificationPage, UnreadDto } from '@earshot/contracts';
import { api } from '../../lib/api';

const withTags = api.enhanceEndpoints({ addTagTypes: ['Notifications'] });

const NOTIFICATIONS_SHOWN = 10;

export const notificationsApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    notifications: build.query<NotificationPage, void>({
      query: () => ({ url: '/notifications', params: { page: 1, pageSize: NOTIFICATIONS_SHOWN } }),
      providesTags: ['Notifications'],
    }),
    markNotificationRead: build.mutation<UnreadDto, string>({
      query: (id) => ({ url: `/notifications/${encodeURIComponent(id)}/read`, method: 'POST' }),
      invalidatesTags: ['Notifications'],
    }),
    markAllNotificationsRead: build.mutation<UnreadDto, void>({
      query: () => ({ url: '/notifications/read-all', method: 'POST' }),
      invalidatesTags: ['Notifications'],
    }),
    myCredits: build.query<MyCreditsDto, void>({ query: () => '/credits/me' }),
  }),
});

export const { useNotificationsQuery, useMarkNotificationReadMutation, useMarkAllNotificationsReadMutation, useMyCreditsQuery } = notificationsApi;
