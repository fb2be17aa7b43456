import { api } from '../../lib/api';
import type { StoredUser } from '../../lib/stored-user';

export interface LoginRequest {
  email: string;
  password: string;
  remember: boolean;
  /** The company subdomain when the console is opened on one. */
  domain?: string;
}

/** Either the signed-in user, or a second step (a code) is needed first. */
export type LoginResponse = { user: StoredUser; twoStepRequired?: false } | { twoStepRequired: true; user?: undefined };

export interface SignInProvider {
  id: 'google' | 'x' | string;
  name: string;
  enabled: boolean;
  startUrl?: string;
}

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Is there a session already (e.g. after signing in with Google or X)? Never ends one. */
    sessionProbe: build.query<StoredUser, void>({
      query: () => '/users/profile',
      extraOptions: { silent: true },
    }),
    login: build.mutation<LoginResponse, LoginRequest>({
      query: (body) => ({ url: '/auth/login', method: 'POST', body }),
    }),
    signInProviders: build.query<{ providers: SignInProvider[] }, void>({
      query: () => '/auth/provider',
    }),
    forgotPassword: build.mutation<{ message?: string }, { email: string; domain?: string }>({
      query: (body) => ({ url: '/auth/password/forgot', method: 'POST', body }),
    }),
    resetPassword: build.mutation<{ message?: string }, { token: string; password: string }>({
      query: (body) => ({ url: '/auth/password/reset', method: 'POST', body }),
    }),
    verifyTwoStep: build.mutation<{ user: StoredUser }, { code: string }>({
      query: (body) => ({ url: '/auth/two-step/verify', method: 'POST', body }),
    }),
  }),
});

export const {
  useLazySessionProbeQuery,
  useLoginMutation,
  useSignInProvidersQuery,
  useForgotPasswordMutation,
  useResetPasswordMutation,
  useVerifyTwoStepMutation,
} = authApi;
