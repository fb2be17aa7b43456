// The signed-out pages' calls to the gateway, with fetch and no store: the sign-in page must not
// download Redux Toolkit. Refusals have RTK Query's error shape (lib/fetch-json.ts).
import type {
  ChangeRequiredPasswordBody,
  ForgotPasswordBody,
  LoginBody,
  LoginResponse,
  MessageBody,
  PasswordChangeRequiredResponse,
  ProvidersResponse,
  ResetPasswordBody,
  ResetPasswordResponse,
  SsoDiscoverResponse,
  TwoStepRequiredResponse,
  TwoStepVerifyBody,
  UserDetailDto,
} from '@earshot/contracts';
import { useCallback, useState } from 'react';
import { createSession } from '../../lib/session';
import { requestJson, sendJson, settle } from '../../lib/fetch-json';

/** Either the signed-in user, or a step is needed first: the two-step code, then a new password (after a one-time one). */
export type LoginAnswer = LoginResponse | TwoStepRequiredResponse | PasswordChangeRequiredResponse;

// Only the probe can meet an expired session (the auth calls' 401s are answers); it refreshes once
// and never ends anything, as the app's `silent` probe does.
const session = createSession({ baseUrl: '/api', onSessionEnd: () => undefined });

export const authRequests = {
  /** Is there a session already (e.g. after signing in with Google or X)? */
  sessionProbe: async (): Promise<UserDetailDto> =>
    settle<UserDetailDto>(
      await session.run(() => sendJson('/users/profile'), {
        unauthorised: (answer) => answer.status === 401,
        ended: () => ({ status: 401, data: null }),
        dispatch: (action) => action,
        silent: true,
      }),
    ),
  login: (body: LoginBody) => requestJson<LoginAnswer>('/auth/login', body),
  signInProviders: () => requestJson<ProvidersResponse>('/auth/provider'),
  /** Whether an e-mail's domain, or this company's own address, signs in through the company's provider. */
  ssoDiscover: (query: { email: string } | { company: string }) =>
    requestJson<SsoDiscoverResponse>(`/auth/sso/discover?${new URLSearchParams(query).toString()}`),
  forgotPassword: (body: ForgotPasswordBody) => requestJson<MessageBody>('/auth/password/forgot', body),
  resetPassword: (body: ResetPasswordBody) => requestJson<ResetPasswordResponse>('/auth/password/reset', body),
  verifyTwoStep: (body: TwoStepVerifyBody) =>
    requestJson<LoginResponse | PasswordChangeRequiredResponse>('/auth/two-step/verify', body),
  changeRequiredPassword: (body: ChangeRequiredPasswordBody) =>
    requestJson<LoginResponse>('/auth/password/change', body),
};

/** A call's progress for a form: running it marks it busy until it settles. */
export function useRequest<A extends unknown[], T>(
  request: (...args: A) => Promise<T>,
): [(...args: A) => Promise<T>, boolean] {
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async (...args: A) => {
      setBusy(true);
      try {
        return await request(...args);
      } finally {
        setBusy(false);
      }
    },
    [request],
  );
  return [run, busy];
}
