// The session every call to the gateway shares: cookies on every call, the CSRF header the gateway
// requires on state changes, and one session refresh on a 401 followed by one retry. The RTK Query
// base query (base-query.ts) uses it, and so do the calls it cannot make (the streamed chat reply,
// the upload with progress, the signed-out pages' fetch), so that a refresh is always one refresh
// for everybody. Apart from base-query.ts so that the signed-out pages do not download Redux Toolkit.
import type { Dispatch } from '@reduxjs/toolkit';
import { AUTH_CODES, AUTH_MESSAGES } from '@earshot/contracts/constants';

export const SESSION_ERRORS = {
  refreshFailed: 'Failed to refresh token',
  retryFailed: 'Request failed after token refresh',
  /** The refresh was refused because the company was suspended: the sign-in page says so. */
  companySuspended: AUTH_MESSAGES.companySuspended,
} as const;
export type SessionEndReason = (typeof SESSION_ERRORS)[keyof typeof SESSION_ERRORS];

/** The header the gateway requires on cookie-authenticated state changes; harmless on reads. */
export const CSRF_HEADER = { 'X-Requested-With': 'XMLHttpRequest' } as const;

export interface SessionOptions {
  /** '/api' in the app; an absolute URL in tests (Node's Request needs one). */
  baseUrl: string;
  /** The fetch to use; resolved on each call so tests and polyfills can swap it. */
  fetchFn?: typeof fetch;
  /** Called once per failed session: clear the stored user, tell the person, go to /signin. */
  onSessionEnd: (reason: SessionEndReason, dispatch: Dispatch) => void;
}

/** How a caller's request is sent with the session. */
export interface SessionCall<T> {
  /** Did this answer say the session has expired (a 401)? */
  unauthorised: (answer: T) => boolean;
  /** The caller's own answer for a session that could not be renewed. */
  ended: (reason: SessionEndReason) => T;
  /** For ending the session (the store's dispatch). */
  dispatch: Dispatch;
  /** Probes (is there a session?) never end the session. */
  silent?: boolean;
}

export interface Session {
  /** Sends `send()`; on a 401 refreshes the session (once for every caller at that moment), then sends it again once. */
  run: <T>(send: () => Promise<T>, call: SessionCall<T>) => Promise<T>;
}

export function createSession(options: SessionOptions): Session {
  const fetchFn: typeof fetch = (input, init) => (options.fetchFn ?? globalThis.fetch)(input, init);

  // One refresh at a time: requests that get a 401 while a refresh runs wait for it (a mutex),
  // and a request that started before the last successful refresh just retries.
  // Each refresh settles to null (renewed) or the reason the session ended.
  let refreshing: Promise<SessionEndReason | null> | null = null;
  let generation = 0;

  async function refresh(): Promise<{ failure: SessionEndReason | null; started: boolean }> {
    if (refreshing) return { failure: await refreshing, started: false };
    refreshing = (async () => {
      try {
        const response = await fetchFn(`${options.baseUrl}/auth/refresh`, {
          method: 'POST',
          credentials: 'include',
          headers: CSRF_HEADER,
        });
        if (response.ok) generation += 1;
        if (response.ok) return null;
        const body = (await response.json().catch(() => null)) as { code?: unknown } | null;
        return body?.code === AUTH_CODES.companySuspended
          ? SESSION_ERRORS.companySuspended
          : SESSION_ERRORS.refreshFailed;
      } catch {
        return SESSION_ERRORS.refreshFailed;
      }
    })();
    try {
      return { failure: await refreshing, started: true };
    } finally {
      refreshing = null;
    }
  }

  return {
    async run(send, call) {
      if (refreshing) await refreshing;
      const startedAt = generation;
      const first = await send();
      if (!call.unauthorised(first)) return first;
      if (startedAt === generation) {
        const { failure, started } = await refresh();
        if (failure) {
          if (started && !call.silent) options.onSessionEnd(failure, call.dispatch);
          return call.ended(failure);
        }
      }
      const second = await send();
      if (!call.unauthorised(second)) return second;
      if (!call.silent) options.onSessionEnd(SESSION_ERRORS.retryFailed, call.dispatch);
      return call.ended(SESSION_ERRORS.retryFailed);
    },
  };
}
