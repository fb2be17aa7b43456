// Session calls every signed-in screen needs (profile refresh, sign-out). Sign-in itself lives in
// the auth feature.
import type { UserDetailDto } from '@earshot/contracts';
import { useCallback } from 'react';
import { api } from './api';
import { navigateTo } from './navigation';
import { clearSessionStorage, signedOut, userUpdated } from './session-slice';
import { useAppDispatch } from './store';
import { browserStorage } from './storage-keys';
import { writeStoredUser } from './stored-user';

export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    getProfile: build.query<UserDetailDto, void>({
      query: () => '/users/profile',
      providesTags: ['Profile'],
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          writeStoredUser(browserStorage(), data);
          dispatch(userUpdated(data));
        } catch {
          // A failed profile call is handled by the base query (session end) or ignored.
        }
      },
    }),
    logout: build.mutation<void, void>({
      query: () => ({ url: '/auth/logout', method: 'POST' }),
    }),
  }),
});

export const { useGetProfileQuery, useLogoutMutation } = sessionApi;

/** Sign out: tell the server, then clear token, refreshToken, user and returnUrl and go to /signin. */
export function useSignOut(): () => Promise<void> {
  const dispatch = useAppDispatch();
  const [logout] = useLogoutMutation();
  return useCallback(async () => {
    try {
      await logout().unwrap();
    } catch {
      // Signing out locally still happens when the server cannot be reached.
    }
    clearSessionStorage(browserStorage());
    dispatch(signedOut(null));
    dispatch(api.util.resetApiState());
    navigateTo('/signin');
  }, [dispatch, logout]);
}
