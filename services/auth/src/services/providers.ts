import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES } from '@earshot/contracts';
import { HttpError, cookieIsSecure, clearCookie, readCookie, setCookie } from '@earshot/kit';
import type { UserRow } from '../db/schema';
import { findCompanyByDomain } from '../repositories/companies';
import { findByEmail } from '../repositories/users';
import type { AuthContext } from './context';
import { randomToken } from './crypto';
import { accountBlocked } from './sessions';
import { signInVerified, type SignInOutcome } from './sign-in';

export const PROVIDER_IDS = ['google', 'x'] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

interface Provider {
  id: ProviderId;
  name: string;
  clientId?: string;
  clientSecret?: string;
  authUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
  scope: string;
}

const STATE_COOKIE = 'earshot_oauth';
const STATE_PATH = '/api/auth/provider';
const STATE_SECONDS = 10 * 60;

function providers(ctx: AuthContext): Record<ProviderId, Provider> {
  const c = ctx.config;
  return {
    google: { id: 'google', name: 'Google', clientId: c.GOOGLE_CLIENT_ID, clientSecret: c.GOOGLE_CLIENT_SECRET, authUrl: c.GOOGLE_AUTH_URL, tokenUrl: c.GOOGLE_TOKEN_URL, userinfoUrl: c.GOOGLE_USERINFO_URL, scope: 'openid email profile' },
    x: { id: 'x', name: 'X', clientId: c.X_CLIENT_ID, clientSecret: c.X_CLIENT_SECRET, authUrl: c.X_AUTH_URL, tokenUrl: c.X_TOKEN_URL, userinfoUrl: c.X_USERINFO_URL, scope: 'users.read users.email tweet.read offline.access' },
  };
}

const enabled = (p: Provider) => Boolean(p.clientId && p.clientSecret);

export function providerList(ctx: AuthContext) {
  return Object.values(providers(ctx)).map((p) => ({
    id: p.id, name: p.name, enabled: enabled(p), ...(enabled(p) ? { startUrl: `/api/auth/provider/${p.id}/start` } : {}),
  }));
}

function enabledProvider(ctx: AuthContext, id: ProviderId): Provider {
  const provider = providers(ctx)[id];
  if (!enabled(provider)) throw new HttpError(404, `Sign-in with ${provider.name} is not enabled for this workspace`, ERROR_CODES.NOT_FOUND);
  return provider;
}

function base(ctx: AuthContext, request: FastifyRequest): string {
  return (ctx.config.PUBLIC_URL ?? `${request.protocol}://${request.host}`).replace(/\/$/, '');
}

const redirectUri = (ctx: AuthContext, request: FastifyRequest, id: ProviderId) => `${base(ctx, request)}/api/auth/provider/${id}/callback`;
const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** Step 1: send the browser to the provider, with a state and a PKCE challenge bound to this browser. */
export function startProvider(ctx: AuthContext, request: FastifyRequest, reply: FastifyReply, id: ProviderId, options: { remember?: boolean; domain?: string }) {
  const provider = enabledProvider(ctx, id);
  const state = randomToken();
  const verifier = randomToken();
  const flow = JSON.stringify({ p: id, s: state, v: verifier, r: options.remember ?? false, d: options.domain ?? null });
  // Lax: the provider's redirect back is a cross-site navigation, which a Strict cookie would miss.
  setCookie(reply, cookieIsSecure(ctx.config, request), STATE_COOKIE, Buffer.from(flow).toString('base64url'), { path: STATE_PATH, maxAge: STATE_SECONDS, sameSite: 'lax' });
  const url = new URL(provider.authUrl);
  url.search = new URLSearchParams({
    response_type: 'code', client_id: provider.clientId!, redirect_uri: redirectUri(ctx, request, id), scope: provider.scope,
    state, code_challenge: challengeOf(verifier), code_challenge_method: 'S256',
  }).toString();
  return reply.redirect(url.toString(), 302);
}

interface Flow { p: string; s: string; v: string; r: boolean; d: string | null }

function readFlow(request: FastifyRequest): Flow | null {
  const raw = readCookie(request, STATE_COOKIE);
  if (!raw) return null;
  try {
    const flow = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Flow;
    return typeof flow.s === 'string' && typeof flow.v === 'string' ? flow : null;
  } catch {
    return null;
  }
}

async function fetchJson(url: string, init: RequestInit): Promise<Record<string, unknown>> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}

/** The verified email of the provider's account, or null. */
async function providerEmail(provider: Provider, accessToken: string): Promise<string | null> {
  const profile = await fetchJson(provider.userinfoUrl, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } });
  const data = (profile.data ?? profile) as Record<string, unknown>;
  const email = data.email ?? data.confirmed_email;
  if (typeof email !== 'string' || data.email_verified === false) return null;
  return email.trim().toLowerCase();
}

async function accountFor(ctx: AuthContext, email: string, domain: string | null): Promise<UserRow | null> {
  let users = await findByEmail(ctx.db, email);
  if (domain) {
    const company = await findCompanyByDomain(ctx.db, domain);
    users = company ? users.filter((u) => u.companyId === company.id) : [];
  }
  const usable: UserRow[] = [];
  for (const user of users) if (!(await accountBlocked(ctx.db, user))) usable.push(user);
  return usable.length === 1 ? usable[0]! : null;
}

export type CallbackResult = { ok: true; outcome: SignInOutcome } | { ok: false; error: string };

/**
 * Step 2: the provider sent the browser back. Checks the state, exchanges the code (with the PKCE
 * verifier) and signs in the existing account with that email. Nobody signs up this way.
 */
export async function finishProvider(ctx: AuthContext, request: FastifyRequest, reply: FastifyReply, id: ProviderId, query: { code?: string; state?: string; error?: string }): Promise<CallbackResult> {
  const provider = enabledProvider(ctx, id);
  const flow = readFlow(request);
  clearCookie(reply, cookieIsSecure(ctx.config, request), STATE_COOKIE, STATE_PATH);
  if (query.error) return { ok: false, error: 'provider_cancelled' };
  if (!flow || flow.p !== id || !query.state || flow.s !== query.state || !query.code) return { ok: false, error: 'provider_state' };
  let email: string | null;
  try {
    const tokens = await fetchJson(provider.tokenUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(provider.clientId!)}:${encodeURIComponent(provider.clientSecret!)}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: query.code, redirect_uri: redirectUri(ctx, request, id), code_verifier: flow.v, client_id: provider.clientId! }).toString(),
    });
    if (typeof tokens.access_token !== 'string') return { ok: false, error: 'provider_failed' };
    email = await providerEmail(provider, tokens.access_token);
  } catch (error) {
    request.log.warn({ err: error, provider: id }, 'sign-in provider exchange failed');
    return { ok: false, error: 'provider_failed' };
  }
  if (!email) return { ok: false, error: 'provider_no_email' };
  const user = await accountFor(ctx, email, flow.d);
  if (!user) return { ok: false, error: 'no_account' };
  return { ok: true, outcome: await signInVerified(ctx, request, user, flow.r) };
}
