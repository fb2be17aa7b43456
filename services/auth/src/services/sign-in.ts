import type { FastifyRequest } from 'fastify';
import { MESSAGES, type LoginBody } from '@earshot/contracts';
import { REFRESH_COOKIE, conflict, readCookie, unauthorized, type Db } from '@earshot/kit';
import type { UserRow } from '../db/schema';
import { findCompanyByDomain } from '../repositories/companies';
import { claimTwoStepStep, findByEmail, findUser, updateUser } from '../repositories/users';
import { consumeRefreshToken, deleteChallenge, findChallenge, findRefreshToken, insertChallenge, revokeFamily } from '../repositories/tokens';
import { EVERYONE, actorOf, actorOfUser, secretBox, type AuthContext } from './context';
import { randomToken, sha256 } from './crypto';
import { verifyPassword } from './passwords';
import { accountBlocked, startSession, type Session } from './sessions';
import { codeKeys, countFailure, countSuccess, passwordKeys, throttled, waitFor, type ThrottleKeys } from './throttle';
import { matchStep } from './totp';

export const TWO_STEP_COOKIE = 'earshot_2fa';
export const TWO_STEP_SECONDS = 5 * 60;
export const INVALID_CODE = 'Invalid verification code';
const STEP_EXPIRED = 'Your sign-in has expired: enter your email and password again';

export type SignInOutcome =
  | { kind: 'session'; user: UserRow; session: Session }
  | { kind: 'two_step'; challenge: string };

type FailureReason = 'invalid_credentials' | 'throttled' | 'disabled' | 'invalid_code';

/** Records a failed attempt (counted towards throttling unless it was itself throttled) and its event. */
async function failAttempt(ctx: AuthContext, request: FastifyRequest, attempt: { email: string; user?: UserRow; companyId: string | null; reason: FailureReason; keys: ThrottleKeys }) {
  await ctx.transact(async (tx, emit) => {
    if (attempt.reason !== 'throttled') await countFailure(tx, attempt.keys);
    emit({
      type: 'user.sign_in_failed',
      companyId: attempt.user?.companyId ?? attempt.companyId,
      actor: attempt.user ? actorOfUser(request, attempt.user) : actorOf(request),
      data: { id: attempt.user?.id ?? null, email: attempt.email, reason: attempt.reason },
    });
  });
}

/** The session, or the two-step step, after a correct password. */
async function completeSignIn(ctx: AuthContext, request: FastifyRequest, user: UserRow, remember: boolean, keys: ThrottleKeys, method: 'password' | 'two_step' | 'provider', challengeHash?: string): Promise<SignInOutcome> {
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
    emit({ type: 'user.signed_in', companyId: user.companyId, actor: actorOfUser(request, user), data: { id: user.id, email: user.email, method } });
    return { kind: 'session', user: signedIn, session };
  });
}

/** Accounts the email may mean: in the company of `domain`, or every account with that email. */
async function candidatesFor(db: Db, email: string, domain: string | undefined): Promise<{ users: UserRow[]; companyId: string | null }> {
  if (domain === undefined) return { users: await findByEmail(db, email), companyId: null };
  const company = await findCompanyByDomain(db, domain);
  return company ? { users: await findByEmail(db, email, company.id), companyId: company.id } : { users: [], companyId: null };
}

/**
 * Email and password sign-in. Every wrong combination gets the same 401, whether or not the email
 * exists (an unknown email is checked against a dummy hash so timing matches too).
 */
export async function signIn(ctx: AuthContext, request: FastifyRequest, body: LoginBody): Promise<SignInOutcome> {
  const keys = passwordKeys(body.email, body.domain, request.ip);
  const wait = await waitFor(ctx.db, keys);
  if (wait > 0) {
    await failAttempt(ctx, request, { email: body.email, companyId: null, reason: 'throttled', keys });
    throw throttled(wait);
  }
  const { users, companyId } = await candidatesFor(ctx.db, body.email, body.domain);
  const matches: UserRow[] = [];
  if (users.length === 0) await verifyPassword(null, body.password);
  for (const user of users) if (await verifyPassword(user.passwordHash, body.password)) matches.push(user);
  if (matches.length === 0) {
    await failAttempt(ctx, request, { email: body.email, user: users.length === 1 ? users[0] : undefined, companyId, reason: 'invalid_credentials', keys });
    throw unauthorized(MESSAGES.invalidCredentials);
  }
  // Only someone who knows the password learns that the email is in several workspaces.
  if (matches.length > 1) throw conflict('This email is used in several workspaces: sign in with your company domain', { field: 'body.domain' });
  const user = matches[0]!;
  if (await accountBlocked(ctx.db, user)) {
    await failAttempt(ctx, request, { email: body.email, user, companyId, reason: 'disabled', keys });
    throw unauthorized(MESSAGES.invalidCredentials);
  }
  return completeSignIn(ctx, request, user, body.remember ?? false, keys, 'password');
}

/** Signs in an account proven by a sign-in provider (no password, no two-step: the provider vouched). */
export async function signInVerified(ctx: AuthContext, request: FastifyRequest, user: UserRow, remember: boolean): Promise<SignInOutcome> {
  return completeSignIn(ctx, request, user, remember, passwordKeys(user.email, undefined, request.ip), 'provider');
}

/** The second step: the code from the authenticator app, for the pending sign-in of the cookie. */
export async function verifyTwoStep(ctx: AuthContext, request: FastifyRequest, code: string): Promise<SignInOutcome> {
  const token = readCookie(request, TWO_STEP_COOKIE);
  const challengeHash = token ? sha256(token) : undefined;
  const challenge = challengeHash ? await findChallenge(ctx.db, challengeHash) : undefined;
  if (!challenge || !challengeHash) throw unauthorized(STEP_EXPIRED);
  const keys = codeKeys(challenge.userId, request.ip);
  const user = await findUser(ctx.db, challenge.userId, EVERYONE);
  if (!user || !user.twoStepEnabled || !user.twoStepSecret) throw unauthorized(STEP_EXPIRED);
  const wait = await waitFor(ctx.db, keys);
  if (wait > 0) {
    await failAttempt(ctx, request, { email: user.email, user, companyId: user.companyId, reason: 'throttled', keys });
    throw throttled(wait);
  }
  const step = matchStep(secretBox(ctx).open(user.twoStepSecret), code);
  // Each code works once: the step is claimed atomically, so a replayed code fails.
  const fresh = step !== null && (await claimTwoStepStep(ctx.db, user.id, step));
  if (!fresh) {
    await failAttempt(ctx, request, { email: user.email, user, companyId: user.companyId, reason: 'invalid_code', keys });
    throw unauthorized(INVALID_CODE);
  }
  if (await accountBlocked(ctx.db, user)) throw unauthorized(STEP_EXPIRED);
  return completeSignIn(ctx, request, user, challenge.remember, keys, 'two_step', challengeHash);
}

const SESSION_ENDED = 'Your session has ended: sign in again';

/**
 * Rotates a refresh token. A token presented twice means it was stolen (or replayed): its whole
 * family is revoked and both holders must sign in again.
 */
export async function refreshSession(ctx: AuthContext, request: FastifyRequest, bodyToken?: string): Promise<{ user: UserRow; session: Session }> {
  const token = readCookie(request, REFRESH_COOKIE) ?? bodyToken;
  if (!token) throw unauthorized(SESSION_ENDED);
  const outcome = await ctx.transact(async (tx, emit) => {
    const row = await consumeRefreshToken(tx, sha256(token));
    if (!row) {
      const known = await findRefreshToken(tx, sha256(token));
      if (known?.usedAt && !known.revokedAt) {
        await revokeFamily(tx, known.familyId);
        const owner = await findUser(tx, known.userId, EVERYONE);
        emit({
          type: 'user.session_revoked',
          companyId: owner?.companyId ?? null,
          actor: owner ? actorOfUser(request, owner) : actorOf(request),
          data: { id: known.userId, reason: 'refresh_token_reused' },
        });
      }
      return null;
    }
    const user = await findUser(tx, row.userId, EVERYONE);
    if (!user || (await accountBlocked(tx, user))) {
      await revokeFamily(tx, row.familyId);
      return null;
    }
    return { user, session: await startSession(ctx, tx, user.id, row.remember, row.familyId) };
  });
  if (!outcome) throw unauthorized(SESSION_ENDED);
  return outcome;
}

/** Ends the session of the refresh cookie (or body token); returns its user when known. */
export async function endSession(ctx: AuthContext, request: FastifyRequest, bodyToken?: string): Promise<void> {
  const token = readCookie(request, REFRESH_COOKIE) ?? bodyToken;
  await ctx.transact(async (tx, emit) => {
    const row = token ? await findRefreshToken(tx, sha256(token)) : undefined;
    if (row) await revokeFamily(tx, row.familyId);
    const userId = row?.userId ?? request.identity?.userId;
    const user = userId ? await findUser(tx, userId, EVERYONE) : undefined;
    if (user) emit({ type: 'user.signed_out', companyId: user.companyId, actor: actorOfUser(request, user), data: { id: user.id } });
  });
}
