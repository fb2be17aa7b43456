import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ADMINS,
  IdParams,
  SsoCallbackQuery,
  SsoDiscoverQuery,
  SsoDiscoverResponse,
  SsoSettingsAnswer,
  SsoSettingsBody,
  SsoSettingsDto,
  SsoSignInsResponse,
  SsoStartQuery,
} from '@earshot/contracts';
import { clearCookie, cookieIsSecure, identityOf, readCookie, setCookie } from '@earshot/kit';
import type { AuthContext } from '../services/context';
import { SSO_FLOW_SECONDS, type SsoService } from '../services/sso';
import { answerSignIn, callerOf, originOf } from './cookies';
import { errors } from './schemas';

/** The single sign-on flow (state, nonce, PKCE verifier, company, where to go), sealed. */
const SSO_COOKIE = 'earshot_sso';
const SSO_PATH = '/api/auth/sso';

/** Single sign-on: a company's provider settings (its ADMIN, the platform administrator) and the public flow. */
export async function ssoRoutes(app: FastifyInstance, ctx: AuthContext, sso: SsoService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['sso'];
  const companyParams = { id: 'ssoCompany' };

  r.get(
    '/companies/:id/sso',
    {
      config: { access: ADMINS, params: companyParams },
      schema: {
        tags,
        summary: 'The company’s identity provider (null when none); the client secret is never answered',
        params: IdParams,
        response: { 200: SsoSettingsAnswer, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => sso.settings(identityOf(request), request.params.id, originOf(request)),
  );

  r.put(
    '/companies/:id/sso',
    {
      config: {
        access: ADMINS,
        params: companyParams,
        // Refused before any request leaves (http:// without SSO_ALLOW_INSECURE_ISSUERS): the matrix stays on loopback.
        example: {
          body: {
            issuer: 'http://127.0.0.1:9/matrix',
            clientId: 'earshot',
            clientSecret: 'matrix-secret',
            domains: ['matrix.example'],
            required: false,
            defaultRole: 'USER',
          },
        },
      },
      schema: {
        tags,
        summary:
          'Save the company’s identity provider: the issuer’s discovery document is fetched first (422 naming issuer when it fails)',
        params: IdParams,
        body: SsoSettingsBody,
        response: { 200: SsoSettingsDto, ...errors(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request) => sso.save(identityOf(request), request.params.id, request.body, originOf(request)),
  );

  r.delete(
    '/companies/:id/sso',
    {
      config: { access: ADMINS, params: companyParams },
      schema: {
        tags,
        summary: 'Turn single sign-on off (people sign in with a password again)',
        params: IdParams,
        response: { 204: z.null(), ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await sso.remove(identityOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  r.get(
    '/companies/:id/sso/sign-ins',
    {
      config: { access: ADMINS, params: companyParams },
      schema: {
        tags,
        summary: 'The people who signed in through the company’s provider, most recent first (at most 20)',
        params: IdParams,
        response: { 200: SsoSignInsResponse, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => sso.recentSignIns(identityOf(request), request.params.id),
  );

  r.get(
    '/auth/sso/discover',
    {
      config: { access: 'public', example: { query: { email: 'someone@example.com' } } },
      schema: {
        tags,
        summary:
          'Whether an e-mail’s domain (or a company’s console domain) signs in through its company’s provider (unknown: {sso:false})',
        querystring: SsoDiscoverQuery,
        response: { 200: SsoDiscoverResponse, ...errors(400) },
      },
    },
    async (request) => sso.discover(request.query),
  );

  r.get(
    '/auth/sso/start',
    {
      config: { access: 'public', example: { query: { company: 'nowhere' } } },
      schema: {
        tags,
        summary: 'Start signing in through the company’s provider (redirects to it)',
        querystring: SsoStartQuery,
        response: { 302: z.null(), ...errors(400) },
      },
    },
    async (request, reply) => {
      const started = await sso.start(originOf(request), request.query);
      if ('error' in started) return reply.redirect(`/signin?error=${started.error}`, 302);
      // Lax: the provider's redirect back is a cross-site navigation, which a Strict cookie would miss.
      setCookie(reply, cookieIsSecure(ctx.config, request), SSO_COOKIE, started.flow, {
        path: SSO_PATH,
        maxAge: SSO_FLOW_SECONDS,
        sameSite: 'lax',
      });
      return reply.redirect(started.redirectUrl, 302);
    },
  );

  r.get(
    '/auth/sso/callback',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Where the company’s provider sends the browser back (signs in, then redirects to the console)',
        querystring: SsoCallbackQuery,
        response: { 302: z.null(), ...errors(400) },
      },
    },
    async (request, reply) => {
      const result = await sso.finish(
        { ...callerOf(request), origin: originOf(request), flow: readCookie(request, SSO_COOKIE) },
        request.query,
      );
      // Used once: a second visit of the same callback finds no flow.
      clearCookie(reply, cookieIsSecure(ctx.config, request), SSO_COOKIE, SSO_PATH);
      if (!result.ok) return reply.redirect(`/signin?error=${result.error}`, 302);
      const kind = await answerSignIn(ctx, request, reply, result.outcome);
      const next = {
        session: result.returnTo,
        two_step: '/signin?step=two-step',
        password_change: '/signin?step=change-password',
      } as const;
      return reply.redirect(next[kind], 302);
    },
  );
}
