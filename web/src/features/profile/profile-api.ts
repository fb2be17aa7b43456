// Calls of the account page, injected into the app's one RTK Query API. Shapes:
// services/auth/README.md (own account, sessions, two-step) and services/tenant/README.md (mail preferences).
import type {
  ChangePasswordBody, MailPreferencesBody, MailPreferencesDto, ProfileUpdateBody, SessionDto, TwoStepEnabledResponse, TwoStepSetupResponse, UserDetailDto,
} from '@earshot/contracts';
import { api } from '../../lib/api';
import { userUpdated } from '../../lib/session-slice';
import { browserStorage } from '../../lib/storage-keys';
import { writeStoredUser } from '../../lib/stored-user';

const withTags = api.enhanceEndpoints({ addTagTypes: ['Sessions', 'MailPreferences'] });

export const profileApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    updateProfile: build.mutation<UserDetailDto, ProfileUpdateBody>({
      query: (body) => ({ url: '/users/profile', method: 'PUT', body }),
      invalidatesTags: ['Profile'],
      // The header's name and avatar follow at once.
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (!data) return;
        writeStoredUser(browserStorage(), data);
        dispatch(userUpdated(data));
      },
    }),
    changePassword: build.mutation<{ message: string }, ChangePasswordBody>({
      query: (body) => ({ url: '/users/password', method: 'PUT', body }),
      invalidatesTags: ['Sessions'],
    }),
    setupTwoStep: build.mutation<TwoStepSetupResponse, void>({
      query: () => ({ url: '/users/two-step/setup', method: 'POST' }),
    }),
    enableTwoStep: build.mutation<TwoStepEnabledResponse, { code: string }>({
      query: (body) => ({ url: '/users/two-step/enable', method: 'POST', body }),
      invalidatesTags: ['Profile'],
    }),
    disableTwoStep: build.mutation<{ message: string }, { code: string }>({
      query: (body) => ({ url: '/users/two-step/disable', method: 'POST', body }),
      invalidatesTags: ['Profile'],
    }),
    sessions: build.query<SessionDto[], void>({
      query: () => '/users/sessions',
      providesTags: ['Sessions'],
    }),
    revokeSession: build.mutation<void, string>({
      query: (id) => ({ url: `/users/sessions/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Sessions'],
    }),
    revokeOtherSessions: build.mutation<{ revoked: number }, void>({
      query: () => ({ url: '/users/sessions/revoke-others', method: 'POST' }),
      invalidatesTags: ['Sessions'],
    }),
    mailPreferences: build.query<MailPreferencesDto, void>({
      query: () => '/email/preferences',
      providesTags: ['MailPreferences'],
    }),
    saveMailPreferences: build.mutation<MailPreferencesDto, MailPreferencesBody>({
      query: (body) => ({ url: '/email/preferences', method: 'PUT', body }),
      invalidatesTags: ['MailPreferences'],
    }),
  }),
});

export const {
  useUpdateProfileMutation, useChangePasswordMutation, useSetupTwoStepMutation, useEnableTwoStepMutation, useDisableTwoStepMutation,
  useSessionsQuery, useRevokeSessionMutation, useRevokeOtherSessionsMutation, useMailPreferencesQuery, useSaveMailPreferencesMutation,
} = profileApi;
