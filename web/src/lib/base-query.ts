// The one base query of the app's RTK Query API: cookies on every call, the CSRF header the
// gateway requires on state changes, and one session refresh on a 401 followed by one retry.
import {
  fetchBaseQuery,
  type BaseQueryApi,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query';

export const SESSION_ERRORS = {
  refreshFailed: 'Failed to refresh token',
  retryFailed: 'Request failed after token refresh',
} as const;
export type SessionEndReason = (typeof SESSION_ERRORS)[keyof typeof SESSION_ERRORS];

export interface SessionBaseQueryOptions {
  /** '/api' in the app; an absolute URL in tests (Node's Request needs one). */
  baseUrl: string;
  /** The fetch to use; resolved on each call so tests and polyfills can swap it. */
  fetchFn?: typeof fetch;
  /** Called once per failed session: clear the stored user, tell the person, go to /signin. */
  onSessionEnd: (reason: SessionEndReason, api: BaseQueryApi) => void;
}

/** Calls that are part of signing in or out, or public: a 401 there is an answer, not an expired session. */
const NO_REFRESH = /^\/?(auth\/|config\/)/;

type Args = string | FetchArgs;

/** Per-endpoint options: `silent` probes (is there a session?) never end the session. */
export interface SessionExtraOptions {
  silent?: boolean;
}

function isSilent(extraOptions: unknown): boolean {
  return Boolean(extraOptions && typeof extraOptions === 'object' && (extraOptions as SessionExtraOptions).silent);
}

function urlOf(args: Args): string {
  return typeof args === 'string' ? args : args.url;
}

function unauthorised(error: FetchBaseQueryError | undefined): boolean {
  return error?.status === 401;
}

export function createSessionBaseQuery(options: SessionBaseQueryOptions): BaseQueryFn<Args, unknown, FetchBaseQueryError> {
  const raw = fetchBaseQuery({
    baseUrl: options.baseUrl,
    credentials: 'include',
    fetchFn: (input, init) => (options.fetchFn ?? globalThis.fetch)(input, init),
    prepareHeaders: (headers) => {
      // The gateway refuses cookie-authenticated state changes without it (CSRF protection);
      // on reads it is harmless, so every call carries it.
      headers.set('X-Requested-With', 'XMLHttpRequest');
      return headers;
    },
  });

  // One refresh at a time: requests that get a 401 while a refresh runs wait for it (a mutex),
  // and a request that started before the last successful refresh just retries.
  let refreshing: Promise<boolean> | null = null;
  let generation = 0;

  async function refresh(api: BaseQueryApi, extraOptions: object): Promise<{ ok: boolean; started: boolean }> {
    if (refreshing) return { ok: await refreshing, started: false };
    refreshing = (async () => {
      const result = await raw({ url: '/auth/refresh', method: 'POST' }, api, extraOptions);
      if (!result.error) generation += 1;
      return !result.error;
    })();
    try {
      return { ok: await refreshing, started: true };
    } finally {
      refreshing = null;
    }
  }

  return async (args, api, extraOptions) => {
    if (refreshing) await refreshing;
    const startedAt = generation;
    let result = await raw(args, api, extraOptions);
    if (!unauthorised(result.error) || NO_REFRESH.test(urlOf(args))) return result;

    if (startedAt === generation) {
      const outcome = await refresh(api, extraOptions);
      if (!outcome.ok) {
        if (outcome.started && !isSilent(extraOptions)) options.onSessionEnd(SESSION_ERRORS.refreshFailed, api);
        return { error: { status: 401, data: { message: SESSION_ERRORS.refreshFailed } } };
      }
    }
    result = await raw(args, api, extraOptions);
    if (unauthorised(result.error)) {
      if (!isSilent(extraOptions)) options.onSessionEnd(SESSION_ERRORS.retryFailed, api);
      return { error: { status: 401, data: { message: SESSION_ERRORS.retryFailed } } };
    }
    return result;
  };
}
