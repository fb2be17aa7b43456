// The app's single RTK Query API for the gateway. Features add endpoints with
// `api.injectEndpoints` in their own folders; nothing else calls createApi.
import { createApi } from '@reduxjs/toolkit/query/react';
import { createSession, createSessionBaseQuery } from './base-query';
import { navigateTo } from './navigation';
import { signedOut } from './session-slice';
import { browserStorage, STORAGE_KEYS } from './storage-keys';

const baseUrl = '/api';

/**
 * The one session of the app: the base query below, the chat stream and the upload all send
 * through it, so every 401 leads to the same single refresh.
 */
export const session = createSession({
  baseUrl,
  onSessionEnd: (reason, dispatch) => {
    console.error(reason);
    browserStorage().removeItem(STORAGE_KEYS.user);
    dispatch(signedOut(reason));
    navigateTo('/signin');
  },
});

export const api = createApi({
  reducerPath: 'api',
  baseQuery: createSessionBaseQuery(session, { baseUrl }),
  tagTypes: ['Profile', 'Company', 'B2cUser'],
  endpoints: () => ({}),
});

export { errorMessage } from './error-message';
