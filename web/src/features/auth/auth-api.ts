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
  TwoStepRequiredResponse,
  TwoStepVerifyBody,
  UserDetailDto,
} from '@earshot/contracts';
import { api } from '../../lib/api';

/** Either the signed-in user, or a step is needed first: the two-step code, then a new password (after a one-time one). */
export type LoginAnswer = LoginResponse | TwoStepRequiredResponse | PasswordChangeRequiredResponse;

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
    resetPassword: build.mutation<ResetPasswordResponse, ResetPasswordBody>({
      query: (body) => ({ url: '/auth/password/reset', method: 'POST', body }),
    }),
    verifyTwoStep: build.mutation<LoginResponse | PasswordChangeRequiredResponse, TwoStepVerifyBody>({
      query: (body) => ({ url: '/auth/two-step/verify', method: 'POST', body }),
    }),
    changeRequiredPassword: build.mutation<LoginResponse, ChangeRequiredPasswordBody>({
      query: (body) => ({ url: '/auth/password/change', method: 'POST', body }),
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
  useChangeRequiredPasswordMutation,
} = authApi;
