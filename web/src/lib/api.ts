// The app's single RTK Query API for the gateway. Features add endpoints with
// `api.injectEndpoints` in their own folders; nothing else calls createApi.
import { createApi } from '@reduxjs/toolkit/query/react';
import { createSessionBaseQuery } from './base-query';
import { navigateTo } from './navigation';
import { signedOut } from './session-slice';
import { browserStorage, STORAGE_KEYS } from './storage-keys';

export const api = createApi({
  reducerPath: 'api',
  baseQuery: createSessionBaseQuery({
    baseUrl: '/api',
    onSessionEnd: (reason, { dispatch }) => {
      console.error(reason);
      browserStorage().removeItem(STORAGE_KEYS.user);
      dispatch(signedOut(reason));
      navigateTo('/signin');
    },
  }),
  tagTypes: ['Profile'],
  endpoints: () => ({}),
});

/** The `{message}` of an error answer (the gateway's error shape), if there is one. */
export function errorMessage(error: unknown): string | null {
  if (error && typeof error === 'object' && 'data' in error) {
    const data = (error as { data?: unknown }).data;
    if (data && typeof data === 'object' && 'message' in data) {
      const message = (data as { message?: unknown }).message;
      if (typeof message === 'string' && message.trim()) return message;
    }
  }
  return null;
}
