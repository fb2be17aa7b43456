// Calls of the account page, injected into the app's one RTK Query API. Shapes:
// services/auth/README.md (own account, sessions, two-step) and services/tenant/README.md (mail preferences).
import type {
  ChangePasswordBody,
  MailPreferencesBody,
  MailPreferencesDto,
  ProfileUpdateBody,
  SessionDto,
  TwoStepEnabledResponse,
  TwoStepSetupResponse,
  UserDetailDto,
  UserDto,
} from '@earshot/contracts';
import type { TypedMutationOnQueryStarted } from '@reduxjs/toolkit/query';
import { api } from '../../lib/api';
import type { createSessionBaseQuery } from '../../lib/base-query';
import { sessionApi } from '../../lib/session-api';
import { userUpdated } from '../../lib/session-slice';
import { browserStorage } from '../../lib/storage-keys';
import { writeStoredUser } from '../../lib/stored-user';

const withTags = api.enhanceEndpoints({ addTagTypes: ['Sessions', 'MailPreferences'] });

/**
 * A new or removed picture: the header's user menu (stored user) and this page (the profile
 * already loaded) show it at once, without asking the server for the whole profile again.
 */
const pictureChanged: TypedMutationOnQueryStarted<
  UserDto,
  unknown,
  ReturnType<typeof createSessionBaseQuery>,
  'api'
> = async (_arg, { dispatch, queryFulfilled }) => {
  const { data } = await queryFulfilled.catch(() => ({ data: null }));
  if (!data) return;
  writeStoredUser(browserStorage(), data);
  dispatch(userUpdated(data));
  dispatch(
    sessionApi.util.updateQueryData('getProfile', undefined, (profile) => {
      profile.avatar = data.avatar;
    }),
  );
};

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
    // Multipart: FormData is sent as it is, so the browser sets the content type and its boundary.
    uploadAvatar: build.mutation<UserDto, File>({
      query: (file) => {
        const body = new FormData();
        body.append('file', file);
        return { url: '/users/profile/avatar', method: 'POST', body };
      },
      onQueryStarted: pictureChanged,
    }),
    removeAvatar: build.mutation<UserDto, void>({
      query: () => ({ url: '/users/profile/avatar', method: 'DELETE' }),
      onQueryStarted: pictureChanged,
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
  useUpdateProfileMutation,
  useUploadAvatarMutation,
  useRemoveAvatarMutation,
  useChangePasswordMutation,
  useSetupTwoStepMutation,
  useEnableTwoStepMutation,
  useDisableTwoStepMutation,
  useSessionsQuery,
  useRevokeSessionMutation,
  useRevokeOtherSessionsMutation,
  useMailPreferencesQuery,
  useSaveMailPreferencesMutation,
} = profileApi;
