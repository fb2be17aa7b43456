import { randomUUID } from 'node:crypto';
import { denialUntil, forbidden, type Db, type NewEvent } from '@earshot/kit';
import { AUTH_CODES, AUTH_MESSAGES, type Actor, type Role } from '@earshot/contracts';
import type { UserRow } from '../db/schema';
import { insertEndedSessions, insertRefreshToken, liveEndedSessions } from '../repositories/tokens';
import { findCompany } from '../repositories/companies';
import { touchSession, type SeenFrom } from '../repositories/sessions';
import type { AuthBase, AuthContext } from './context';
import { randomToken, sha256 } from './crypto';

/** Server-side life of a session that is not remembered (its cookies end with the browser anyway). */
const SESSION_REFRESH_SECONDS = 24 * 3600;

/** Company statuses that stop their people from signing in (other statuses, e.g. active or trial, allow it). */
export const BLOCKED_COMPANY_STATUSES = new Set([
  'inactive',
  'suspended',
  'disabled',
  'blocked',
  'archived',
  'deleted',
]);

export interface Session {
  refreshToken: string;
  familyId: string;
  remember: boolean;
  refreshSeconds: number;
}

/** Longest User-Agent kept: enough to name the device, too little to store whatever a client sends. */
const USER_AGENT_MAX = 512;

/** Where a request came from, as the session list keeps it. */
export function seenFrom(caller: { ip: string; userAgent?: string }): SeenFrom {
  // Control characters never reach the list (nor a log line that quotes it).
  const userAgent = [...(caller.userAgent ?? '')]
    .filter((c) => c >= ' ' && c !== '\u007f')
    .join('')
    .slice(0, USER_AGENT_MAX);
  return { address: caller.ip, userAgent };
}

function refreshSeconds(ctx: AuthBase, remember: boolean): number {
  return remember ? ctx.config.REFRESH_TOKEN_TTL_DAYS * 86_400 : SESSION_REFRESH_SECONDS;
}

/**
 * Why an account cannot sign in or refresh, or null when it can: disabled (or its company is gone),
 * or its company is switched off (suspended, inactive...), which the person is told.
 */
export async function blockedReason(db: Db, user: UserRow): Promise<'disabled' | 'company_suspended' | null> {
  if (user.status !== 'active') return 'disabled';
  if (user.companyId === null) return null;
  const company = await findCompany(db, user.companyId);
  if (!company) return 'disabled';
  return BLOCKED_COMPANY_STATUSES.has(company.status.toLowerCase()) ? 'company_suspended' : null;
}

export async function accountBlocked(db: Db, user: UserRow): Promise<boolean> {
  return (await blockedReason(db, user)) !== null;
}

/** The answer to someone whose company is switched off: 403 with a message the console shows as is. */
export const companySuspended = () => forbidden(AUTH_MESSAGES.companySuspended, AUTH_CODES.companySuspended);

/**
 * Stores a new refresh token; a rotation passes the family it continues. Either way the session is
 * seen now from where the request came (its owner's list of sessions shows it).
 */
export async function startSession(
  ctx: AuthBase,
  tx: Db,
  userId: string,
  remember: boolean,
  seen: SeenFrom,
  familyId: string = randomUUID(),
): Promise<Session> {
  const refreshToken = randomToken();
  const seconds = refreshSeconds(ctx, remember);
  await insertRefreshToken(tx, {
    tokenHash: sha256(refreshToken),
    familyId,
    userId,
    remember,
    expiresAt: new Date(Date.now() + seconds * 1000),
  });
  await touchSession(tx, familyId, userId, seen);
  return { refreshToken, familyId, remember, refreshSeconds: seconds };
}

/** The session a second refresh within the grace window continues (the same successor token). */
export function resumedSession(
  ctx: AuthBase,
  row: { familyId: string; remember: boolean },
  refreshToken: string,
): Session {
  return {
    refreshToken,
    familyId: row.familyId,
    remember: row.remember,
    refreshSeconds: refreshSeconds(ctx, row.remember),
  };
}

/** The access token of a session: its id is the refresh family, so ending the family refuses the token. */
export function accessToken(ctx: AuthContext, user: UserRow, session: Session): Promise<string> {
  return ctx.signer.sign({
    userId: user.id,
    companyId: user.companyId,
    role: user.role as Role,
    email: user.email,
    sessionId: session.familyId,
  });
}

export type EndReason =
  | 'signed_out'
  | 'refresh_token_reused'
  | 'disabled'
  | 'deleted'
  | 'role_changed'
  | 'company_changed'
  | 'company_blocked'
  | 'password_changed';

/** Sessions a transaction ended: tell the verifier with `announceEnded` once it has committed. */
export interface EndedSessions {
  sessionIds: string[];
  until: Date;
}

/** Ids per event: a company with many sessions is announced in several small events. */
const IDS_PER_EVENT = 1000;

/**
 * Records sessions whose refresh families were just revoked as ended (so a restarted verifier still
 * refuses them) and announces them to verifiers in other processes, in the same transaction.
 */
export async function recordEnded(
  ctx: AuthBase,
  tx: Db,
  emit: (event: NewEvent) => void,
  ended: { sessionIds: string[]; userId: string | null; companyId: string | null; reason: EndReason; actor: Actor },
): Promise<EndedSessions> {
  const until = denialUntil(ctx.config.ACCESS_TOKEN_TTL_SECONDS);
  if (ended.sessionIds.length === 0) return { sessionIds: [], until };
  await insertEndedSessions(tx, ended.sessionIds, until);
  for (let i = 0; i < ended.sessionIds.length; i += IDS_PER_EVENT) {
    emit({
      type: 'user.sessions_ended',
      companyId: ended.companyId,
      actor: ended.actor,
      data: {
        userId: ended.userId,
        sessionIds: ended.sessionIds.slice(i, i + IDS_PER_EVENT),
        reason: ended.reason,
        until: until.toISOString(),
      },
    });
  }
  return { sessionIds: ended.sessionIds, until };
}

/**
 * After the commit: this process's verifier (in all-in-one, the gateway's and every service's)
 * refuses the sessions' tokens from the next request on, without waiting for the relay.
 */
export function announceEnded(ctx: Pick<AuthBase, 'tokens'>, ...ended: (EndedSessions | undefined | null)[]): void {
  for (const e of ended) if (e?.sessionIds.length) ctx.tokens.endSessions(e.sessionIds, e.until);
}

/** At start: sessions ended before a restart stay refused until their tokens expire. */
export async function restoreEnded(ctx: Pick<AuthBase, 'db' | 'tokens'>): Promise<void> {
  for (const row of await liveEndedSessions(ctx.db)) ctx.tokens.endSessions([row.sessionId], row.until);
}
