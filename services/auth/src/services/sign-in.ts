import { MESSAGES, type LoginBody } from '@earshot/contracts';
import { conflict, unauthorized, type Db } from '@earshot/kit';
import type { UserRow } from '../db/schema';
import { findCompanyByDomain } from '../repositories/companies';
import { claimTwoStepStep, findByEmail, findUser, updateUser } from '../repositories/users';
import { consumeRefreshToken, deleteChallenge, findChallenge, findRefreshToken, insertChallenge, recordSuccessor, revokeFamily, usedWithin } from '../repositories/tokens';
import { EVERYONE, actorOf, actorOfUser, type AuthContext, type Caller } from './context';
import { randomToken, sha256 } from './crypto';
import { verifyPassword } from './passwords';
import { accountBlocked, announceEnded, recordEnded, resumedSession, startSession, type EndedSessions, type Session } from './sessions';
import { accountKey, codeKeys, countFailure, countSuccess, knownDevice, knownDeviceCookie, passwordKeys, throttled, waitFor, type ThrottleKeys } from './throttle';
import { matchStep } from './totp';

export const TWO_STEP_SECONDS = 5 * 60;
export const INVALID_CODE = 'Invalid verification code';
const STEP_EXPIRED = 'Your sign-in has expired: enter your email and password again';
/**
 * A refresh token presented again this soon after its rotation gets the same successor: two tabs
 * (or a retried request) refreshing at once keep the session. Later reuse still means theft.
 */
export const REFRESH_GRACE_SECONDS = 5;

/** A sign-in that proved the password also answers the device's known-device cookie. */
export type SignInOutcome =
  | { kind: 'session'; user: UserRow; session: Session; knownDevice?: string }
  | { kind: 'two_step'; challenge: string; knownDevice?: string };

type FailureReason = 'invalid_credentials' | 'throttled' | 'disabled' | 'invalid_code';

/** Records a failed attempt (counted towards throttling unless it was itself throttled) and its event. */
async function failAttempt(ctx: AuthContext, caller: Caller, attempt: { email: string; user?: UserRow; companyId: string | null; reason: FailureReason; keys: ThrottleKeys }) {
  await ctx.transact(async (tx, emit) => {
    if (attempt.reason !== 'throttled') await countFailure(tx, attempt.keys);
    emit({
      type: 'user.sign_in_failed',
      companyId: attempt.user?.companyId ?? attempt.companyId,
      actor: attempt.user ? actorOfUser(caller, attempt.user) : actorOf(caller),
      data: { id: attempt.user?.id ?? null, email: attempt.email, reason: attempt.reason },
    });
  });
}

/** The session, or the two-step step, after a correct password. */
async function completeSignIn(ctx: AuthContext, caller: Caller, user: UserRow, remember: boolean, keys: ThrottleKeys, method: 'password' | 'two_step' | 'provider', challengeHash?: string): Promise<SignInOutcome> {
  return ctx.transact(async (tx, emit) => {
    await countSuccess(tx, keys);
    if (challengeHash) await deleteChallenge(tx, challengeHash);
    // Two-step verification stands even when a provider vouched for the email.
    if (method !== 'two_step' && user.twoStepEnabled) {
      const challenge = randomToken();
      await insertChallenge(tx, { tokenHash: sha256(challenge), userId: user.id, remember, expiresAt: new Date(Date.now() + TWO_STEP_SECONDS * 1000) });
      return { kind: 'two_step', challenge };
    }
    const session = await startSession(ctx, tx, user.id, remember);
    const signedIn = await updateUser(tx, user.id, { lastSignInAt: new Date() });
    emit({ type: 'user.signed_in', companyId: user.companyId, actor: actorOfUser(caller, user), data: { id: user.id, email: user.email, method } });
    return { kind: 'session', user: signedIn, session };
  });
}

/** Accounts the email may mean: in the company of `domain`, or every account with that email. */
async function candidatesFor(db: Db, email: string, domain: string | undefined): Promise<{ users: UserRow[]; companyId: string | null }> {
  if (domain === undefined) return { users: await findByEmail(db, email), companyId: null };
  const company = await findCompanyByDomain(db, domain);
  return company ? { users: await findByEmail(db, email, company.id), companyId: company.id } : { users: [], companyId: null };
}

const SESSION_ENDED = 'Your session has ended: sign in again';

/** Sign-in, two-step verification, refresh and logout (constructed once per mount). */
export class SignInService {
  constructor(private readonly ctx: AuthContext) {}

  /**
   * Email and password sign-in. Every wrong combination gets the same 401, whether or not the email
   * exists (an unknown email is checked against a dummy hash so timing matches too).
   */
  async signIn(caller: Caller, body: LoginBody): Promise<SignInOutcome> {
    const { ctx } = this;
    const account = accountKey(body.email, body.domain);
    const device = knownDevice(ctx.box, caller.knownDevice, account);
    const keys = passwordKeys(account, caller.ip, device);
    const wait = await waitFor(ctx.db, keys);
    if (wait > 0) {
      await failAttempt(ctx, caller, { email: body.email, companyId: null, reason: 'throttled', keys });
      throw throttled(wait);
    }
    const { users, companyId } = await candidatesFor(ctx.db, body.email, body.domain);
    const matches: UserRow[] = [];
    if (users.length === 0) await verifyPassword(null, body.password);
    for (const user of users) if (await verifyPassword(user.passwordHash, body.password)) matches.push(user);
    if (matches.length === 0) {
      await failAttempt(ctx, caller, { email: body.email, user: users.length === 1 ? users[0] : undefined, companyId, reason: 'invalid_credentials', keys });
      throw unauthorized(MESSAGES.invalidCredentials);
    }
    // Only someone who knows the password learns that the email is in several workspaces.
    if (matches.length > 1) throw conflict('This email is used in several workspaces: sign in with your company domain', { field: 'body.domain' });
    const user = matches[0]!;
    if (await accountBlocked(ctx.db, user)) {
      await failAttempt(ctx, caller, { email: body.email, user, companyId, reason: 'disabled', keys });
      throw unauthorized(MESSAGES.invalidCredentials);
    }
    const outcome = await completeSignIn(ctx, caller, user, body.remember ?? false, keys, 'password');
    return { ...outcome, knownDevice: knownDeviceCookie(ctx.box, account, device) };
  }

  /** Signs in an account proven by a sign-in provider (no password, no two-step: the provider vouched). */
  async signInVerified(caller: Caller, user: UserRow, remember: boolean): Promise<SignInOutcome> {
    const { ctx } = this;
    return completeSignIn(ctx, caller, user, remember, passwordKeys(accountKey(user.email, undefined), caller.ip, null), 'provider');
  }

  /** The second step: the code from the authenticator app, for the pending sign-in of the cookie. */
  async verifyTwoStep(caller: Caller, code: string): Promise<SignInOutcome> {
    const { ctx } = this;
    const challengeHash = caller.twoStepToken ? sha256(caller.twoStepToken) : undefined;
    const challenge = challengeHash ? await findChallenge(ctx.db, challengeHash) : undefined;
    if (!challenge || !challengeHash) throw unauthorized(STEP_EXPIRED);
    const keys = codeKeys(challenge.userId, caller.ip);
    const user = await findUser(ctx.db, challenge.userId, EVERYONE);
    if (!user || !user.twoStepEnabled || !user.twoStepSecret) throw unauthorized(STEP_EXPIRED);
    const wait = await waitFor(ctx.db, keys);
    if (wait > 0) {
      await failAttempt(ctx, caller, { email: user.email, user, companyId: user.companyId, reason: 'throttled', keys });
      throw throttled(wait);
    }
    const step = matchStep(ctx.box.open(user.twoStepSecret), code);
    // Each code works once: the step is claimed atomically, so a replayed code fails.
    const fresh = step !== null && (await claimTwoStepStep(ctx.db, user.id, step));
    if (!fresh) {
      await failAttempt(ctx, caller, { email: user.email, user, companyId: user.companyId, reason: 'invalid_code', keys });
      throw unauthorized(INVALID_CODE);
    }
    if (await accountBlocked(ctx.db, user)) throw unauthorized(STEP_EXPIRED);
    return completeSignIn(ctx, caller, user, challenge.remember, keys, 'two_step', challengeHash);
  }

  /**
   * Rotates a refresh token. Presented again within REFRESH_GRACE_SECONDS it answers the same
   * successor; presented again later it means the token was stolen (or replayed): its whole family
   * is revoked and both holders must sign in again.
   */
  async refreshSession(caller: Caller, bodyToken?: string): Promise<{ user: UserRow; session: Session }> {
    const { ctx } = this;
    const token = caller.refreshToken ?? bodyToken;
    if (!token) throw unauthorized(SESSION_ENDED);
    const hash = sha256(token);
    const outcome = await ctx.transact(async (tx, emit): Promise<{ user: UserRow; session: Session } | EndedSessions | null> => {
      const row = await consumeRefreshToken(tx, hash);
      if (!row) {
        const recent = await usedWithin(tx, hash, REFRESH_GRACE_SECONDS);
        if (recent?.successorSealed) {
          const user = await findUser(tx, recent.userId, EVERYONE);
          if (user && !(await accountBlocked(tx, user))) return { user, session: resumedSession(ctx, recent, ctx.box.open(recent.successorSealed)) };
        }
        const known = await findRefreshToken(tx, hash);
        if (!known?.usedAt || known.revokedAt) return null;
        const owner = await findUser(tx, known.userId, EVERYONE);
        const actor = owner ? actorOfUser(caller, owner) : actorOf(caller);
        emit({ type: 'user.session_revoked', companyId: owner?.companyId ?? null, actor, data: { id: known.userId, reason: 'refresh_token_reused' } });
        return recordEnded(ctx, tx, emit, { sessionIds: await revokeFamily(tx, known.familyId), userId: known.userId, companyId: owner?.companyId ?? null, reason: 'refresh_token_reused', actor });
      }
      const user = await findUser(tx, row.userId, EVERYONE);
      if (!user || (await accountBlocked(tx, user))) {
        await revokeFamily(tx, row.familyId);
        return null;
      }
      const session = await startSession(ctx, tx, user.id, row.remember, row.familyId);
      await recordSuccessor(tx, hash, ctx.box.seal(session.refreshToken));
      return { user, session };
    });
    if (outcome && 'user' in outcome) return outcome;
    announceEnded(ctx, outcome);
    throw unauthorized(SESSION_ENDED);
  }

  /** Logout: ends the session of the refresh token and of the access token presented. */
  async endSession(caller: Caller, bodyToken?: string): Promise<void> {
    const { ctx } = this;
    const token = caller.refreshToken ?? bodyToken;
    const ended = await ctx.transact(async (tx, emit) => {
      const row = token ? await findRefreshToken(tx, sha256(token)) : undefined;
      const families = [...new Set([row?.familyId, caller.identity?.sessionId].filter((id): id is string => !!id))];
      for (const family of families) await revokeFamily(tx, family);
      if (families.length === 0) return null;
      const userId = row?.userId ?? caller.identity?.userId ?? null;
      const user = userId ? await findUser(tx, userId, EVERYONE) : undefined;
      const actor = user ? actorOfUser(caller, user) : actorOf(caller, caller.identity);
      if (user) emit({ type: 'user.signed_out', companyId: user.companyId, actor, data: { id: user.id } });
      return recordEnded(ctx, tx, emit, { sessionIds: families, userId, companyId: user?.companyId ?? caller.identity?.companyId ?? null, reason: 'signed_out', actor });
    });
    announceEnded(ctx, ended);
  }
}
