import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ChangeRequiredPasswordBody,
  Domain,
  ForgotPasswordBody,
  LoginBody,
  LoginResponse,
  MessageBody,
  PasswordChangeRequiredResponse,
  ProvidersResponse,
  RefreshBody,
  RefreshResponse,
  ResetPasswordBody,
  ResetPasswordResponse,
  TwoStepRequiredResponse,
  TwoStepVerifyBody,
  JwksResponse,
} from '@earshot/contracts';
import { clearCookie, cookieIsSecure, readCookie, setCookie } from '@earshot/kit';
import { FLOW_SECONDS, PROVIDER_IDS } from '../services/providers';
import { toUserDto, type AuthContext } from '../services/context';
import type { AuthServices } from '../services/index';
import type { SignInOutcome } from '../services/sign-in';
import {
  FLOW_COOKIE,
  FLOW_PATH,
  answerSignIn,
  callerOf,
  clearSessionCookies,
  originOf,
  writeSessionCookies,
} from './cookies';
import { errors } from './schemas';

/** What a sign-in answers: the user with the session, or the step the browser must show next. */
function signInAnswer(
  outcome: SignInOutcome,
): LoginResponse | TwoStepRequiredResponse | PasswordChangeRequiredResponse {
  if (outcome.kind === 'session') return { user: toUserDto(outcome.user) };
  return outcome.kind === 'two_step' ? { twoStepRequired: true } : { passwordChangeRequired: true };
}

export async function authRoutes(
  app: FastifyInstance,
  ctx: AuthContext,
  { signIns, credentials, providers }: AuthServices,
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/auth/login',
    {
      config: {
        access: 'public',
        csrfExempt: true,
        example: { body: { email: 'nobody@example.com', password: 'not-a-password' } },
      },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with email and password',
        body: LoginBody,
        response: {
          200: z.union([LoginResponse, TwoStepRequiredResponse, PasswordChangeRequiredResponse]),
          ...errors(400, 401, 403, 409, 429),
        },
      },
    },
    async (request, reply) => {
      const outcome = await signIns.signIn(callerOf(request), request.body);
      await answerSignIn(ctx, request, reply, outcome);
      return signInAnswer(outcome);
    },
  );

  r.post(
    '/auth/two-step/verify',
    {
      config: { access: 'public', csrfExempt: true, example: { body: { code: '123456' } } },
      schema: {
        tags: ['auth'],
        summary: 'Finish a sign-in with the authenticator code',
        body: TwoStepVerifyBody,
        response: { 200: z.union([LoginResponse, PasswordChangeRequiredResponse]), ...errors(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const outcome = await signIns.verifyTwoStep(callerOf(request), request.body.code);
      await answerSignIn(ctx, request, reply, outcome);
      if (outcome.kind === 'two_step') throw new Error('two-step verification cannot ask for itself again');
      return outcome.kind === 'session' ? { user: toUserDto(outcome.user) } : { passwordChangeRequired: true as const };
    },
  );

  r.post(
    '/auth/password/change',
    {
      config: { access: 'public', csrfExempt: true, example: { body: { password: 'a-new-password' } } },
      schema: {
        tags: ['auth'],
        summary: 'Finish a sign-in with a one-time password: choose the new password (the pending cookie says whose)',
        body: ChangeRequiredPasswordBody,
        response: { 200: LoginResponse, ...errors(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const outcome = await signIns.changeRequiredPassword(callerOf(request), request.body.password);
      await answerSignIn(ctx, request, reply, outcome);
      if (outcome.kind !== 'session') throw new Error('choosing the password is the last step of a sign-in');
      return { user: toUserDto(outcome.user) };
    },
  );

  r.post(
    '/auth/refresh',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Rotate the refresh token; answers a fresh access token',
        body: RefreshBody.nullish(),
        response: { 200: RefreshResponse, ...errors(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const bodyToken = request.body?.refreshToken;
      const { user, session } = await signIns.refreshSession(callerOf(request), bodyToken);
      const token = await writeSessionCookies(ctx, request, reply, user, session);
      // Older clients keep the refresh token themselves: they get the rotated one back.
      return bodyToken ? { token, refreshToken: session.refreshToken } : { token };
    },
  );

  r.post(
    '/auth/logout',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'End the session',
        body: RefreshBody.nullish(),
        response: { 204: z.null(), ...errors(400, 403) },
      },
    },
    async (request, reply) => {
      await signIns.endSession(callerOf(request), request.body?.refreshToken);
      clearSessionCookies(ctx, request, reply);
      return reply.code(204).send(null);
    },
  );

  r.post(
    '/auth/password/forgot',
    {
      config: { access: 'public', csrfExempt: true, example: { body: { email: 'nobody@example.com' } } },
      schema: {
        tags: ['auth'],
        summary:
          'Ask for a password reset link (same answer whether the account exists; 403 when the e-mail’s company requires its own sign-in)',
        body: ForgotPasswordBody,
        response: { 202: MessageBody, ...errors(400, 403) },
      },
    },
    async (request, reply) => {
      await credentials.requestReset(callerOf(request), request.body.email, request.body.domain);
      return reply
        .code(202)
        .send({ message: 'If an account exists for this email, a link to reset its password is on its way' });
    },
  );

  r.post(
    '/auth/password/reset',
    {
      config: {
        access: 'public',
        csrfExempt: true,
        example: { body: { token: 'not-a-token', password: 'a-new-password' } },
      },
      schema: {
        tags: ['auth'],
        summary:
          'Set a new password with a reset link, or the first one with an invitation link (which also signs the person in: user is answered)',
        body: ResetPasswordBody,
        response: { 200: ResetPasswordResponse, ...errors(400, 403) },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const accepted = await credentials.resetPassword(caller, request.body.token, request.body.password);
      const outcome = accepted ? await signIns.signInAccepted(caller, accepted) : null;
      if (outcome?.kind === 'session') {
        await answerSignIn(ctx, request, reply, outcome);
        return { message: 'Your password is set: welcome', user: toUserDto(outcome.user) };
      }
      return { message: 'Your password was changed: sign in with the new one' };
    },
  );

  r.get(
    '/auth/jwks',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'The public keys that verify access tokens (JWKS): the signing key and recently retired ones',
        response: { 200: JwksResponse },
      },
    },
    async (_request, reply) => {
      // Verifiers cache it; a new kid makes them fetch again, so a short cache is enough.
      void reply.header('cache-control', 'public, max-age=300');
      return ctx.signer.jwks() as JwksResponse;
    },
  );

  r.get(
    '/auth/provider',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Sign-in providers and whether each is enabled',
        response: { 200: ProvidersResponse },
      },
    },
    async () => ({ providers: providers.list() }),
  );

  const ProviderParams = z.object({ id: z.enum(PROVIDER_IDS) }).strict();

  r.get(
    '/auth/provider/:id/start',
    {
      config: { access: 'public', params: { id: 'provider' } },
      schema: {
        tags: ['auth'],
        summary: 'Start signing in with a provider (redirects to it)',
        params: ProviderParams,
        querystring: z.object({ remember: z.enum(['true', 'false']).optional(), domain: Domain.optional() }).strict(),
        response: { 302: z.null(), ...errors(400, 404) },
      },
    },
    async (request, reply) => {
      const { redirectUrl, flow } = await providers.start(originOf(request), request.params.id, {
        remember: request.query.remember === 'true',
        domain: request.query.domain,
      });
      // Lax: the provider's redirect back is a cross-site navigation, which a Strict cookie would miss.
      setCookie(reply, cookieIsSecure(ctx.config, request), FLOW_COOKIE, flow, {
        path: FLOW_PATH,
        maxAge: FLOW_SECONDS,
        sameSite: 'lax',
      });
      return reply.redirect(redirectUrl, 302);
    },
  );

  r.get(
    '/auth/provider/:id/callback',
    {
      config: { access: 'public', params: { id: 'provider' } },
      schema: {
        tags: ['auth'],
        summary: 'Where the provider sends the browser back (signs in, then redirects to the console)',
        params: ProviderParams,
        querystring: z
          .object({
            code: z.string().max(2048).optional(),
            state: z.string().max(200).optional(),
            error: z.string().max(200).optional(),
            error_description: z.string().max(2000).optional(),
            scope: z.string().max(2000).optional(),
            authuser: z.string().max(20).optional(),
            prompt: z.string().max(100).optional(),
            hd: z.string().max(253).optional(),
          })
          .strict(),
        response: { 302: z.null(), ...errors(400, 404) },
      },
    },
    async (request, reply) => {
      const result = await providers.finish(
        { ...callerOf(request), origin: originOf(request), flow: readCookie(request, FLOW_COOKIE) },
        request.params.id,
        request.query,
      );
      clearCookie(reply, cookieIsSecure(ctx.config, request), FLOW_COOKIE, FLOW_PATH);
      if (!result.ok) return reply.redirect(`/signin?error=${result.error}`, 302);
      const kind = await answerSignIn(ctx, request, reply, result.outcome);
      const next = {
        session: '/chat',
        two_step: '/signin?step=two-step',
        password_change: '/signin?step=change-password',
      } as const;
      return reply.redirect(next[kind], 302);
    },
  );
}
