// The RTK Query base query over the session (lib/session.ts): cookies on every call, the CSRF
// header, and one session refresh on a 401 followed by one retry.
import { fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { CSRF_HEADER, type Session, type SessionOptions } from './session';

export {
  createSession,
  CSRF_HEADER,
  SESSION_ERRORS,
  type Session,
  type SessionCall,
  type SessionEndReason,
  type SessionOptions,
} from './session';

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

/** The RTK Query base query over `session`. */
export function createSessionBaseQuery(
  session: Session,
  options: Pick<SessionOptions, 'baseUrl' | 'fetchFn'>,
): BaseQueryFn<Args, unknown, FetchBaseQueryError> {
  const raw = fetchBaseQuery({
    baseUrl: options.baseUrl,
    credentials: 'include',
    fetchFn: (input, init) => (options.fetchFn ?? globalThis.fetch)(input, init),
    prepareHeaders: (headers) => {
      for (const [name, value] of Object.entries(CSRF_HEADER)) headers.set(name, value);
      return headers;
    },
  });
  type Result = Awaited<ReturnType<typeof raw>>;

  return (args, api, extraOptions) => {
    const send = async () => raw(args, api, extraOptions);
    return session.run<Result>(send, {
      unauthorised: (result) => result.error?.status === 401 && !NO_REFRESH.test(urlOf(args)),
      ended: (reason) => ({ error: { status: 401, data: { message: reason } } }),
      dispatch: api.dispatch,
      silent: isSilent(extraOptions),
    });
  };
}
