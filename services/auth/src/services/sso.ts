import * as oidc from 'openid-client';
import {
  ERROR_CODES,
  SSO_ROLES,
  type Role,
  type SsoCallbackQuery,
  type SsoDiscoverQuery,
  type SsoDiscoverResponse,
  type SsoError,
  type SsoSettingsBody,
  type SsoSettingsDto,
  type SsoSignInsResponse,
  type SsoStartQuery,
} from '@earshot/contracts';
import { BlockedUrlError, checkUrl, guardedFetch } from '@earshot/ai';
import { HttpError, badRequest, conflict, notFound, type Db, type Emit, type Identity } from '@earshot/kit';
import type { CompanyRow, UserRow } from '../db/schema';
import { findCompany, findCompanyByDomain } from '../repositories/companies';
import {
  deleteSsoProvider,
  domainsOwnedElsewhere,
  findSsoProvider,
  linkIdentity,
  linkedUser,
  recentSsoSignIns,
  saveSsoProvider,
  ssoProviderForDomain,
  type SsoProvider,
} from '../repositories/sso';
import { revokeUserSessions } from '../repositories/tokens';
import { findByEmail, insertUser, lockUser, updateUser } from '../repositories/users';
import { actorOf, actorOfUser, userState, type AuthContext, type Caller } from './context';
import { announceEnded, blockedReason, recordEnded, type EndedSessions } from './sessions';
import type { SignInOutcome, SignInService } from './sign-in';
import { NO_PASSWORD, checkNotLastAdmin, companyRoom } from './users';

// Single sign-on per company: OpenID Connect's authorization code flow with PKCE, state and nonce
// through openid-client (signature, issuer, audience, nonce and expiry of the ID token are its checks).

/** How long the browser has to come back from the company's provider (the flow cookie's life). */
export const SSO_FLOW_SECONDS = 10 * 60;
/** A provider's discovery document is fetched again after this long (or when its settings change). */
const DISCOVERY_TTL_MS = 10 * 60_000;
const SCOPES = 'openid email profile';
export const SSO_CALLBACK_PATH = '/api/auth/sso/callback';
const SIGN_INS_SHOWN = 20;

const COMPANY = 'Company';
const ISSUER_UNREACHABLE =
  'The issuer did not answer with a valid OpenID Connect discovery document (/.well-known/openid-configuration)';
const INSECURE_ISSUER = 'must be an https:// URL (an http:// issuer needs SSO_ALLOW_INSECURE_ISSUERS=true)';
const SECRET_NEEDED = 'The client secret is required when the provider is first saved';

/** The sealed flow cookie: company, issuer, state, nonce, PKCE verifier, where to go, remember, when. */
interface Flow {
  c: string;
  i: string;
  s: string;
  n: string;
  v: string;
  r: string;
  m: boolean;
  t: number;
}

export type SsoCallbackResult = { ok: true; outcome: SignInOutcome; returnTo: string } | { ok: false; error: SsoError };

class SsoRefusal extends Error {
  constructor(
    readonly reason: SsoError,
    readonly detail: { email?: string; user?: UserRow } = {},
  ) {
    super(reason);
  }
}

const unprocessable = (field: string, message: string) =>
  new HttpError(422, message, ERROR_CODES.VALIDATION, [{ field, message }]);

const RANK: Record<(typeof SSO_ROLES)[number], number> = { CALLER: 0, USER: 1, ADMIN: 2 };

/** The role the provider's claim maps to (the highest when several values map), else the default. */
export function mappedRole(provider: Pick<SsoProvider, 'roleClaim' | 'roleMap' | 'defaultRole'>, claims: object): Role {
  const raw = provider.roleClaim ? (claims as Record<string, unknown>)[provider.roleClaim] : undefined;
  const values = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string');
  let role: Role = provider.defaultRole as Role;
  let best = -1;
  for (const value of values) {
    const mapped = provider.roleMap[value] as (typeof SSO_ROLES)[number] | undefined;
    if (mapped && RANK[mapped] > best) {
      best = RANK[mapped];
      role = mapped;
    }
  }
  return role;
}

/** Single sign-on: the company's provider settings, discovery for the sign-in page, and the flow. */
export class SsoService {
  private readonly discovered = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();

  constructor(
    private readonly ctx: AuthContext,
    private readonly signIns: SignInService,
  ) {}

  private get allowInsecure(): boolean {
    return this.ctx.config.SSO_ALLOW_INSECURE_ISSUERS;
  }

  /** Where the provider sends the browser back: one address for every company (the flow names it). */
  redirectUri(origin: string): string {
    return `${(this.ctx.config.PUBLIC_URL ?? origin).replace(/\/+$/, '')}${SSO_CALLBACK_PATH}`;
  }

  /** An ADMIN works on their own company; a HOST_ADMIN on any company that exists. Else 404. */
  private async company(db: Db, identity: Identity, companyId: string) {
    if (identity.role !== 'HOST_ADMIN' && identity.companyId !== companyId) throw notFound(COMPANY);
    const company = await findCompany(db, companyId);
    if (!company) throw notFound(COMPANY);
    return company;
  }

  private toDto(provider: SsoProvider, companyDomain: string, origin: string): SsoSettingsDto {
    return {
      companyId: provider.companyId,
      issuer: provider.issuer,
      clientId: provider.clientId,
      domains: provider.domains,
      required: provider.required,
      defaultRole: provider.defaultRole as SsoSettingsDto['defaultRole'],
      roleClaim: provider.roleClaim,
      roleMap: provider.roleMap as SsoSettingsDto['roleMap'],
      redirectUri: this.redirectUri(origin),
      startUrl: startUrlOf(companyDomain),
      updatedAt: provider.updatedAt.toISOString(),
    };
  }

  async settings(identity: Identity, companyId: string, origin: string): Promise<SsoSettingsDto | null> {
    const company = await this.company(this.ctx.db, identity, companyId);
    const provider = await findSsoProvider(this.ctx.db, companyId);
    return provider ? this.toDto(provider, company.domain, origin) : null;
  }

  /**
   * Saves the company's provider once its issuer answers a valid discovery document (422 naming
   * `issuer` otherwise). The secret is sealed; leaving it out keeps the stored one.
   */
  async save(identity: Identity, companyId: string, body: SsoSettingsBody, origin: string): Promise<SsoSettingsDto> {
    const { ctx } = this;
    const company = await this.company(ctx.db, identity, companyId);
    const stored = await findSsoProvider(ctx.db, companyId);
    const secret = body.clientSecret ?? (stored ? ctx.box.open(stored.clientSecretSealed) : undefined);
    if (secret === undefined) throw badRequest(SECRET_NEEDED, [{ field: 'body.clientSecret', message: SECRET_NEEDED }]);
    const taken = await domainsOwnedElsewhere(ctx.db, companyId, body.domains);
    if (taken.length > 0) throw domainsTaken(taken);
    await this.discoverIssuer(body.issuer, body.clientId, secret, 'body.issuer');
    const values = {
      issuer: body.issuer,
      clientId: body.clientId,
      clientSecretSealed: ctx.box.seal(secret),
      required: body.required,
      defaultRole: body.defaultRole,
      roleClaim: body.roleClaim ?? null,
      roleMap: body.roleClaim ? (body.roleMap ?? {}) : {},
    };
    try {
      await ctx.transact(async (tx, emit) => {
        await saveSsoProvider(tx, companyId, values, body.domains);
        emit({
          type: 'sso.configured',
          companyId,
          actor: actorOf(identity, identity),
          data: {
            companyId,
            issuer: values.issuer,
            clientId: values.clientId,
            domains: body.domains,
            required: values.required,
            defaultRole: values.defaultRole,
            roleClaim: values.roleClaim,
            roleMap: values.roleMap,
            secretChanged: body.clientSecret !== undefined,
          },
        });
      });
    } catch (error) {
      // Another company saved one of these domains meanwhile: the primary key said no.
      if ((error as { code?: string }).code === '23505') throw domainsTaken(body.domains);
      throw error;
    }
    this.discovered.clear();
    return this.toDto((await findSsoProvider(ctx.db, companyId))!, company.domain, origin);
  }

  async remove(identity: Identity, companyId: string): Promise<void> {
    const { ctx } = this;
    await this.company(ctx.db, identity, companyId);
    await ctx.transact(async (tx, emit) => {
      if (await deleteSsoProvider(tx, companyId))
        emit({ type: 'sso.removed', companyId, actor: actorOf(identity, identity), data: { companyId } });
    });
    this.discovered.clear();
  }

  /** The company's people who signed in through its provider, most recent first. */
  async recentSignIns(identity: Identity, companyId: string): Promise<SsoSignInsResponse> {
    await this.company(this.ctx.db, identity, companyId);
    const rows = await recentSsoSignIns(this.ctx.db, companyId, SIGN_INS_SHOWN);
    return rows.map(({ identity: link, user }) => ({
      userId: user.id,
      email: user.email,
      name: `${user.firstName} ${user.lastName}`.trim(),
      role: user.role,
      subject: link.subject,
      linkedAt: link.createdAt.toISOString(),
      lastSignInAt: link.lastSignInAt?.toISOString() ?? null,
    }));
  }

  /** Whether an e-mail's domain (or a console domain) signs in through a company's provider. Unknown and unconfigured answer alike. */
  async discover(query: SsoDiscoverQuery): Promise<SsoDiscoverResponse> {
    const { ctx } = this;
    let provider: SsoProvider | undefined;
    let company: CompanyRow | undefined;
    if (query.email) {
      provider = await ssoProviderForDomain(ctx.db, query.email.slice(query.email.lastIndexOf('@') + 1));
      company = provider ? await findCompany(ctx.db, provider.companyId) : undefined;
    } else if (query.company) {
      company = await findCompanyByDomain(ctx.db, query.company);
      provider = company ? await findSsoProvider(ctx.db, company.id) : undefined;
    }
    if (!provider || !company?.name) return { sso: false };
    return { sso: true, companyName: company.name, required: provider.required, startUrl: startUrlOf(company.domain) };
  }

  /** Fetches (through the outbound address guard) and checks the issuer's discovery document. */
  private async discoverIssuer(
    issuer: string,
    clientId: string,
    secret: string,
    field?: string,
  ): Promise<oidc.Configuration> {
    const policy = { allowPrivate: this.allowInsecure };
    try {
      if (!this.allowInsecure && new URL(issuer).protocol !== 'https:') throw new BlockedUrlError('scheme', issuer);
      await checkUrl(issuer, policy);
    } catch (error) {
      if (!field) throw error;
      throw unprocessable(field, error instanceof BlockedUrlError ? insecureMessage(error) : ISSUER_UNREACHABLE);
    }
    try {
      return await oidc.discovery(new URL(issuer), clientId, undefined, oidc.ClientSecretBasic(secret), {
        [oidc.customFetch]: guardedFetch(policy) as oidc.CustomFetch,
        execute: this.allowInsecure ? [oidc.allowInsecureRequests] : [],
        timeout: 10,
      });
    } catch (error) {
      this.ctx.logger.warn({ issuer, err: (error as Error).message }, 'SSO issuer discovery failed');
      if (!field) throw error;
      throw unprocessable(field, ISSUER_UNREACHABLE);
    }
  }

  /** The provider's configuration, discovered again after DISCOVERY_TTL_MS or a change of settings. */
  private configuration(provider: SsoProvider): Promise<oidc.Configuration> {
    const key = `${provider.companyId}|${provider.updatedAt.getTime()}`;
    const cached = this.discovered.get(key);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
    const config = this.discoverIssuer(
      provider.issuer,
      provider.clientId,
      this.ctx.box.open(provider.clientSecretSealed),
    );
    // A failed discovery is not kept: the next sign-in asks the provider again.
    config.catch(() => this.discovered.delete(key));
    this.discovered.set(key, { at: Date.now(), config });
    return config;
  }

  /**
   * Step 1: where to send the browser for the company of `company` (its console domain), and the
   * sealed flow for the route to keep in a cookie bound to this browser.
   */
  async start(
    origin: string,
    query: SsoStartQuery,
  ): Promise<{ redirectUrl: string; flow: string } | { error: SsoError }> {
    const { ctx } = this;
    const company = await findCompanyByDomain(ctx.db, query.company);
    const provider = company ? await findSsoProvider(ctx.db, company.id) : undefined;
    if (!company || !provider) return { error: 'sso_not_configured' };
    let config: oidc.Configuration;
    try {
      config = await this.configuration(provider);
    } catch {
      return { error: 'sso_unavailable' };
    }
    const verifier = oidc.randomPKCECodeVerifier();
    const flow: Flow = {
      c: company.id,
      i: provider.issuer,
      s: oidc.randomState(),
      n: oidc.randomNonce(),
      v: verifier,
      r: query.returnTo ?? '/chat',
      m: query.remember === 'true',
      t: Date.now(),
    };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri(origin),
      scope: SCOPES,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: flow.s,
      nonce: flow.n,
    });
    return { redirectUrl: url.href, flow: ctx.box.seal(JSON.stringify(flow)) };
  }

  private openFlow(sealed: string | undefined): Flow | null {
    if (!sealed) return null;
    try {
      const flow = JSON.parse(this.ctx.box.open(sealed)) as Flow;
      return Date.now() - flow.t <= SSO_FLOW_SECONDS * 1000 ? flow : null;
    } catch {
      return null;
    }
  }

  /**
   * Step 2: the provider sent the browser back. The state must be the flow cookie's; the code is
   * exchanged with the PKCE verifier and the ID token checked against the company's issuer, client
   * and nonce. Every refusal is audited as user.sign_in_failed with its reason.
   */
  async finish(
    caller: Caller & { origin: string; flow: string | undefined },
    query: SsoCallbackQuery,
  ): Promise<SsoCallbackResult> {
    const flow = this.openFlow(caller.flow);
    try {
      if (!flow || !query.state || query.state !== flow.s) throw new SsoRefusal('sso_state');
      if (query.error) throw new SsoRefusal('sso_cancelled');
      const provider = await findSsoProvider(this.ctx.db, flow.c);
      if (!provider || provider.issuer !== flow.i) throw new SsoRefusal('sso_not_configured');
      const claims = await this.exchange(provider, flow, caller.origin, query);
      const { user, ended } = await this.userFor(caller, provider, claims);
      announceEnded(this.ctx, ended);
      const outcome = await this.signIns.signInVerified(caller, user, flow.m, 'sso');
      return { ok: true, outcome, returnTo: flow.r };
    } catch (error) {
      if (!(error instanceof SsoRefusal)) throw error;
      await this.audit(caller, flow, error);
      return { ok: false, error: error.reason };
    }
  }

  /** The code for tokens; the checked ID token's claims. */
  private async exchange(
    provider: SsoProvider,
    flow: Flow,
    origin: string,
    query: SsoCallbackQuery,
  ): Promise<oidc.IDToken & Record<string, unknown>> {
    let config: oidc.Configuration;
    try {
      config = await this.configuration(provider);
    } catch {
      throw new SsoRefusal('sso_unavailable');
    }
    const current = new URL(this.redirectUri(origin));
    for (const [key, value] of Object.entries(query)) if (value !== undefined) current.searchParams.set(key, value);
    try {
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: flow.v,
        expectedState: flow.s,
        expectedNonce: flow.n,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims || claims.iss !== provider.issuer) throw new Error('the ID token is not from the company’s issuer');
      return claims;
    } catch (error) {
      this.ctx.logger.warn({ issuer: provider.issuer, err: (error as Error).message }, 'SSO token refused');
      throw new SsoRefusal('sso_token');
    }
  }

  /**
   * The user of the flow's company for these claims: linked by (issuer, subject); or, the first time,
   * an existing user of that company with the same e-mail if the provider says it is verified; or a
   * new user of that company (within its user limit). The mapped role applies at every sign-in.
   */
  private async userFor(
    caller: Caller,
    provider: SsoProvider,
    claims: oidc.IDToken & Record<string, unknown>,
  ): Promise<{ user: UserRow; ended: EndedSessions | null }> {
    const { ctx } = this;
    const companyId = provider.companyId;
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : undefined;
    const role = mappedRole(provider, claims);
    return ctx.transact(async (tx, emit) => {
      let user = await linkedUser(tx, companyId, provider.issuer, claims.sub);
      if (!user) {
        if (!email) throw new SsoRefusal('sso_no_email');
        const [existing] = await findByEmail(tx, email, companyId);
        if (existing && claims.email_verified !== true) throw new SsoRefusal('sso_email_unverified', { email });
        user = existing ?? (await this.createUser(tx, emit, caller, companyId, email, role, claims));
      }
      await linkIdentity(tx, { companyId, issuer: provider.issuer, subject: claims.sub, userId: user.id });
      // Someone invited signs in through their company instead of choosing a password.
      if (user.status === 'invited') user = await updateUser(tx, user.id, { status: 'active' });
      const blocked = await blockedReason(tx, user);
      if (blocked) throw new SsoRefusal('sso_disabled', { email: user.email, user });
      const ended = provider.roleClaim ? await this.applyRole(tx, emit, caller, user, role) : null;
      return { user: ended?.user ?? user, ended: ended?.ended ?? null };
    });
  }

  private async createUser(
    tx: Db,
    emit: Emit,
    caller: Caller,
    companyId: string,
    email: string,
    role: Role,
    claims: Record<string, unknown>,
  ): Promise<UserRow> {
    if ((await companyRoom(tx, companyId)) !== 'room') throw new SsoRefusal('sso_user_limit', { email });
    const text = (key: string) => (typeof claims[key] === 'string' ? (claims[key] as string).trim().slice(0, 120) : '');
    const [first, ...rest] = text('name').split(/\s+/);
    const user = await insertUser(tx, {
      companyId,
      email,
      firstName: text('given_name') || first || email.slice(0, email.indexOf('@')),
      lastName: text('family_name') || rest.join(' '),
      avatar: null,
      role,
      // Nothing verifies against an empty hash: this person signs in through the provider only.
      passwordHash: NO_PASSWORD,
      status: 'active',
    });
    emit({
      type: 'user.created',
      companyId,
      actor: actorOfUser(caller, user),
      data: { id: user.id, after: userState(user) },
    });
    return user;
  }

  /** The provider's role, when it changed: the person's other sessions (holding the old role) end. */
  private async applyRole(
    tx: Db,
    emit: Emit,
    caller: Caller,
    user: UserRow,
    role: Role,
  ): Promise<{ user: UserRow; ended: EndedSessions } | null> {
    if (user.role === role) return null;
    const locked = (await lockUser(tx, user.id, { all: false, companyId: user.companyId! }))!;
    try {
      await checkNotLastAdmin(tx, locked, { role, status: locked.status, companyId: locked.companyId });
    } catch {
      // The company's last active ADMIN keeps the role rather than leave the company without one.
      return null;
    }
    const after = await updateUser(tx, user.id, { role });
    const actor = actorOfUser(caller, after);
    emit({
      type: 'user.updated',
      companyId: after.companyId,
      actor,
      data: { id: after.id, before: userState(locked), after: userState(after) },
    });
    const ended = await recordEnded(this.ctx, tx, emit, {
      sessionIds: await revokeUserSessions(tx, user.id),
      userId: user.id,
      companyId: user.companyId,
      reason: 'role_changed',
      actor,
    });
    return { user: after, ended };
  }

  private async audit(caller: Caller, flow: Flow | null, refusal: SsoRefusal): Promise<void> {
    const user = refusal.detail.user;
    await this.ctx.transact(async (_tx, emit) => {
      emit({
        type: 'user.sign_in_failed',
        companyId: user?.companyId ?? flow?.c ?? null,
        actor: user ? actorOfUser(caller, user) : actorOf(caller),
        data: {
          id: user?.id ?? null,
          email: refusal.detail.email ?? '',
          reason: refusal.reason,
          ...(flow ? { issuer: flow.i } : {}),
        },
      });
    });
  }
}

const startUrlOf = (companyDomain: string) => `/api/auth/sso/start?company=${encodeURIComponent(companyDomain)}`;

function domainsTaken(domains: string[]) {
  const message = `Already used by another company: ${domains.join(', ')}`;
  return conflict(message, [{ field: 'body.domains', message }]);
}

function insecureMessage(error: BlockedUrlError): string {
  if (error.reason === 'scheme') return INSECURE_ISSUER;
  if (error.reason === 'private')
    return 'is on a private or loopback address (allowed only with SSO_ALLOW_INSECURE_ISSUERS=true)';
  return 'is on an address that is never reachable (link-local or reserved)';
}
