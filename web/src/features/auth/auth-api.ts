import type {
  ForgotPasswordBody,
  LoginBody,
  LoginResponse,
  MessageBody,
  ProvidersResponse,
  ResetPasswordBody,
  TwoStepRequiredResponse,
  TwoStepVerifyBody,
  UserDetailDto,
} from '@earshot/contracts';
import { api } from '../../lib/api';

/** Either the signed-in user, or a second step (a code) is needed first. */
export type LoginAnswer = LoginResponse | TwoStepRequiredResponse;

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Is there a session already (e.g. after signing in with Google or X)? Never ends one. */
    sessionProbe: build.query<UserDetailDto, void>({
      query: () => '/users/profile',
      extraOptions: { silent: true },
    }),
    login: build.mutation<LoginAnswer, LoginBody>({
      query: (body) => ({ url: '/auth/login', method: 'POST', body }),
    }),
    signInProviders: build.query<ProvidersResponse, void>({
      query: () => '/auth/provider',
    }),
    forgotPassword: build.mutation<MessageBody, ForgotPasswordBody>({
      query: (body) => ({ url: '/auth/password/forgot', method: 'POST', body }),
    }),
    resetPassword: build.mutation<MessageBody, ResetPasswordBody>({
      query: (body) => ({ url: '/auth/password/reset', method: 'POST', body }),
    }),
    verifyTwoStep: build.mutation<LoginResponse, TwoStepVerifyBody>({
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
