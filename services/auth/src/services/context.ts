import type { Actor, AdminUserDto, Role, UserDetailDto, UserDto } from '@earshot/contracts';
import {
  NO_COMPANY,
  SecretBox,
  TokenSigner,
  actorOf as actorOfIdentity,
  consoleAddress,
  resolveSigningKeys,
  secretBox,
  type Identity,
  type ServiceContext,
} from '@earshot/kit';
import type { AuthConfig } from '../config';
import type { CompanyRow, UserRow } from '../db/schema';
import type { Scope } from '../repositories/users';

/** What event handlers and start-up need: the kit's context (verifying, never signing). */
export type AuthBase = ServiceContext<AuthConfig>;

/** The auth service's own context: the only signer of access tokens, and its at-rest encryption. */
export interface AuthContext extends AuthBase {
  readonly signer: TokenSigner;
  /** Two-step secrets, grace-window successors and known-device cookies are sealed with it. */
  readonly box: SecretBox;
  /** Seals links that only the mail sender (tenant service) may open: they ride on events. */
  readonly mailBox: SecretBox;
}

/**
 * Built once when the routes are mounted: loads the signing key (AUTH_SIGNING_KEY, or the pair
 * generated in DATA_DIR) and makes the process's verifier trust its public half in-process.
 */
export async function authContext(ctx: AuthBase): Promise<AuthContext> {
  const ttl = ctx.config.ACCESS_TOKEN_TTL_SECONDS;
  const signer = new TokenSigner(await resolveSigningKeys(ctx.config.DATA_DIR, ttl, ctx.config), ttl);
  ctx.tokens.trust(signer.jwks());
  return {
    ...ctx,
    signer,
    box: new SecretBox(ctx.config.SECRETS_KEY, ctx.config.JWT_SECRET ?? 'earshot'),
    mailBox: secretBox(ctx.config, 'mail'),
  };
}

/** The page where a reset or invitation link lets someone choose a password (see `consoleAddress`). */
export function passwordLink(
  ctx: AuthBase,
  token: string,
  purpose: 'reset' | 'invitation',
  companyDomain: string | null,
): string {
  return `${consoleAddress(ctx.config, companyDomain)}/reset-password?token=${encodeURIComponent(token)}${purpose === 'invitation' ? '&invite=1' : ''}`;
}

/** The users a caller may see: their company, or for a HOST_ADMIN every company (or the one asked for). */
export function scopeFor(identity: Identity, requestedCompanyId?: string): Scope {
  if (identity.role === 'HOST_ADMIN')
    return requestedCompanyId ? { all: false, companyId: requestedCompanyId } : { all: true };
  return { all: false, companyId: identity.companyId ?? NO_COMPANY };
}

export const EVERYONE: Scope = { all: true };

/**
 * What a service method needs of the HTTP request, as plain data the route reads: who (if signed
 * in), from where, and the session cookies it presented.
 */
export interface Caller {
  ip: string;
  /** The browser's User-Agent header (shown, made readable, in the list of one's sessions). */
  userAgent?: string;
  identity: Identity | null;
  refreshToken?: string;
  twoStepToken?: string;
  /** The pending sign-in waiting for a new password (after a one-time password). */
  passwordChangeToken?: string;
  /** The sealed known-device cookie (see throttle.ts). */
  knownDevice?: string;
}

export function actorOf(caller: { ip: string }, identity?: Identity | null): Actor {
  return identity ? actorOfIdentity(identity, caller.ip) : { type: 'user', id: null, ip: caller.ip };
}

export function actorOfUser(caller: { ip: string }, user: UserRow): Actor {
  return actorOfIdentity(
    { userId: user.id, email: user.email, role: user.role as Role, companyId: user.companyId },
    caller.ip,
  );
}

/** What events may say about a user: never hashes or secrets. */
export function userState(user: UserRow) {
  return {
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role as Role,
    companyId: user.companyId,
    status: user.status as UserDetailDto['status'],
    avatar: user.avatar,
    monthlyCredits: user.monthlyCredits,
  };
}

export function toUserDto(user: UserRow): UserDto {
  return {
    _id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    avatar: user.avatar,
    companyId: user.companyId,
    roles: { role: { code: user.role as Role } },
    language: (user.language as UserDto['language']) ?? null,
    monthlyCredits: user.monthlyCredits,
  };
}

export function toUserDetailDto(user: UserRow): UserDetailDto {
  return {
    ...toUserDto(user),
    role: user.role as Role,
    status: user.status as UserDetailDto['status'],
    twoStepEnabled: user.twoStepEnabled,
    lastSignInAt: user.lastSignInAt?.toISOString() ?? null,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

/** A user as the users API answers it, with the name of its company (from the projection). */
export function toAdminUserDto(
  user: UserRow,
  companies: ReadonlyMap<string, Pick<CompanyRow, 'name'>>,
  invitations: ReadonlyMap<string, Date>,
): AdminUserDto {
  return {
    ...toUserDetailDto(user),
    companyName: (user.companyId && companies.get(user.companyId)?.name) ?? null,
    passwordChangeRequired: user.passwordChangeRequired,
    invitationExpiresAt: invitations.get(user.id)?.toISOString() ?? null,
    monthlyCredits: user.monthlyCredits,
  };
}
