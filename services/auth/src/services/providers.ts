import type * as Arctic from 'arctic';
import { ERROR_CODES } from '@earshot/contracts';
import { HttpError } from '@earshot/kit';
import type { UserRow } from '../db/schema';
import { findCompanyByDomain } from '../repositories/companies';
import { findByEmail } from '../repositories/users';
import type { AuthContext, Caller } from './context';
import { accountBlocked } from './sessions';
import type { SignInOutcome, SignInService } from './sign-in';

// Sign-in with Google and X: OAuth 2.0 authorization code with PKCE (S256) through arctic's generic
// client, so the endpoints stay configurable (*_AUTH_URL, *_TOKEN_URL, *_USERINFO_URL).

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
  scopes: string[];
}

/** How long the browser has to come back from the provider (the flow cookie's life). */
export const FLOW_SECONDS = 10 * 60;

function providers(ctx: AuthContext): Record<ProviderId, Provider> {
  const c = ctx.config;
  return {
    google: {
      id: 'google',
      name: 'Google',
      clientId: c.GOOGLE_CLIENT_ID,
      clientSecret: c.GOOGLE_CLIENT_SECRET,
      authUrl: c.GOOGLE_AUTH_URL,
      tokenUrl: c.GOOGLE_TOKEN_URL,
      userinfoUrl: c.GOOGLE_USERINFO_URL,
      scopes: ['openid', 'email', 'profile'],
    },
    x: {
      id: 'x',
      name: 'X',
      clientId: c.X_CLIENT_ID,
      clientSecret: c.X_CLIENT_SECRET,
      authUrl: c.X_AUTH_URL,
      tokenUrl: c.X_TOKEN_URL,
      userinfoUrl: c.X_USERINFO_URL,
      scopes: ['users.read', 'users.email', 'tweet.read', 'offline.access'],
    },
  };
}

const enabled = (p: Provider) => Boolean(p.clientId && p.clientSecret);

function enabledProvider(ctx: AuthContext, id: ProviderId): Provider {
  const provider = providers(ctx)[id];
  if (!enabled(provider))
    throw new HttpError(404, `Sign-in with ${provider.name} is not enabled for this workspace`, ERROR_CODES.NOT_FOUND);
  return provider;
}

// arctic is loaded at the first sign-in through a provider, which most processes never see.
const arctic = (): Promise<typeof Arctic> => import('arctic');

/** The OAuth client for a provider, redirecting back to `origin` (PUBLIC_URL, or the request's origin). */
async function clientFor(ctx: AuthContext, provider: Provider, origin: string): Promise<Arctic.OAuth2Client> {
  const base = (ctx.config.PUBLIC_URL ?? origin).replace(/\/+$/, '');
  const { OAuth2Client } = await arctic();
  return new OAuth2Client(
    provider.clientId!,
    provider.clientSecret!,
    `${base}/api/auth/provider/${provider.id}/callback`,
  );
}

interface Flow {
  p: string;
  s: string;
  v: string;
  r: boolean;
  d: string | null;
}

function readFlow(raw: string | undefined): Flow | null {
  if (!raw) return null;
  try {
    const flow = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Flow;
    return typeof flow.s === 'string' && typeof flow.v === 'string' ? flow : null;
  } catch {
    return null;
  }
}

/** The verified email of the provider's account, or null. */
async function providerEmail(provider: Provider, accessToken: string): Promise<string | null> {
  const response = await fetch(provider.userinfoUrl, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`${provider.userinfoUrl} answered ${response.status}`);
  const profile = (await response.json()) as Record<string, unknown>;
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

/** Sign-in with Google and X (constructed once per mount). */
export class ProviderService {
  constructor(
    private readonly ctx: AuthContext,
    private readonly signIns: SignInService,
  ) {}

  list() {
    const { ctx } = this;
    return Object.values(providers(ctx)).map((p) => ({
      id: p.id,
      name: p.name,
      enabled: enabled(p),
      ...(enabled(p) ? { startUrl: `/api/auth/provider/${p.id}/start` } : {}),
    }));
  }

  /**
   * Step 1: where to send the browser, and the flow (state, PKCE verifier, options) for the route to
   * keep in a cookie bound to this browser.
   */
  async start(
    origin: string,
    id: ProviderId,
    options: { remember?: boolean; domain?: string },
  ): Promise<{ redirectUrl: string; flow: string }> {
    const { ctx } = this;
    const provider = enabledProvider(ctx, id);
    const { CodeChallengeMethod, generateCodeVerifier, generateState } = await arctic();
    const state = generateState();
    const verifier = generateCodeVerifier();
    const url = (await clientFor(ctx, provider, origin)).createAuthorizationURLWithPKCE(
      provider.authUrl,
      state,
      CodeChallengeMethod.S256,
      verifier,
      provider.scopes,
    );
    const flow: Flow = { p: id, s: state, v: verifier, r: options.remember ?? false, d: options.domain ?? null };
    return { redirectUrl: url.toString(), flow: Buffer.from(JSON.stringify(flow)).toString('base64url') };
  }

  /**
   * Step 2: the provider sent the browser back. Checks the state against the flow cookie, exchanges
   * the code (with the PKCE verifier) and signs in the existing account with that email. Nobody
   * signs up this way.
   */
  async finish(
    caller: Caller & { origin: string; flow: string | undefined },
    id: ProviderId,
    query: { code?: string; state?: string; error?: string },
  ): Promise<CallbackResult> {
    const { ctx } = this;
    const provider = enabledProvider(ctx, id);
    const flow = readFlow(caller.flow);
    if (query.error) return { ok: false, error: 'provider_cancelled' };
    if (!flow || flow.p !== id || !query.state || flow.s !== query.state || !query.code)
      return { ok: false, error: 'provider_state' };
    // Outside the try: a library that cannot load fails the request, never reads as the provider's failure.
    const client = await clientFor(ctx, provider, caller.origin);
    let email: string | null;
    try {
      const tokens = await client.validateAuthorizationCode(provider.tokenUrl, query.code, flow.v);
      email = await providerEmail(provider, tokens.accessToken());
    } catch (error) {
      ctx.logger.warn({ err: error, provider: id }, 'sign-in provider exchange failed');
      return { ok: false, error: 'provider_failed' };
    }
    if (!email) return { ok: false, error: 'provider_no_email' };
    const user = await accountFor(ctx, email, flow.d);
    if (!user) return { ok: false, error: 'no_account' };
    return { ok: true, outcome: await this.signIns.signInVerified(caller, user, flow.r) };
  }
}
