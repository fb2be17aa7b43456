import { AUTH_CODES, AUTH_MESSAGES, MESSAGES, type LoginBody } from '@earshot/contracts';
import { HttpError, badRequest, conflict, unauthorized, type Db, type Emit } from '@earshot/kit';
import type { UserRow } from '../db/schema';
import { findCompanyByDomain } from '../repositories/companies';
import { findByEmail, findUser, lockUser, updateUser } from '../repositories/users';
import {
  consumeRefreshToken,
  deleteChallenge,
  findChallenge,
  findRefreshToken,
  insertChallenge,
  recordSuccessor,
  revokeFamily,
  revokeUserSessions,
  usedWithin,
  voidResets,
} from '../repositories/tokens';
import { EVERYONE, actorOf, actorOfUser, type AuthContext, type Caller } from './context';
import { randomToken, sha256 } from './crypto';
import { hashPassword, verifyPassword } from './passwords';
import {
  blockedReason,
  announceEnded,
  seenFrom,
  companySuspended,
  recordEnded,
  resumedSession,
  startSession,
  type EndedSessions,
  type Session,
} from './sessions';
import {
  accountKey,
  codeKeys,
  countFailure,
  countSuccess,
  knownDevice,
  knownDeviceCookie,
  passwordKeys,
  throttled,
  waitFor,
  type ThrottleKeys,
} from './throttle';
import { domainRequiresSso, ssoRequired, userRequiresSso } from './sso-required';
import { useTwoStepCode } from './two-step';

export const TWO_STEP_SECONDS = 5 * 60;
/** Time to choose a new password after signing in with a one-time one. */
export const PASSWORD_CHANGE_SECONDS = 10 * 60;
export const INVALID_CODE = 'Invalid verification code';
const STEP_EXPIRED = 'Your sign-in has expired: enter your email and password again';
/**
 * A refresh token presented again this soon after its rotation gets the same successor: two tabs
 * (or a retried request) refreshing at once keep the session. Later reuse still means theft.
 */
export const REFRESH_GRACE_SECONDS = 5;

/**
 * A sign-in that proved the password also answers the device's known-device cookie. Before the
 * session it may ask for the two-step code, then for a new password (after a one-time one).
 */
export type SignInOutcome =
  | { kind: 'session'; user: UserRow; session: Session; knownDevice?: string }
  | { kind: 'two_step' | 'password_change'; challenge: string; knownDevice?: string };

/** How far a sign-in got: each step is asked for once, in this order. */
type Step = 'password' | 'provider' | 'sso' | 'two_step' | 'password_change';

type FailureReason = 'invalid_credentials' | 'throttled' | 'disabled' | 'invalid_code' | 'sso_required';

/** Records a failed attempt (counted towards throttling unless it was itself throttled) and its event. */
async function failAttempt(
  ctx: AuthContext,
  caller: Caller,
  attempt: { email: string; user?: UserRow; companyId: string | null; reason: FailureReason; keys: ThrottleKeys },
) {
  await ctx.transact(async (tx, emit) => {
    // Being sent to one's company's sign-in is no guess at a password.
    if (attempt.reason !== 'throttled' && attempt.reason !== 'sso_required') await countFailure(tx, attempt.keys);
    emit({
      type: 'user.sign_in_failed',
      companyId: attempt.user?.companyId ?? attempt.companyId,
      actor: attempt.user ? actorOfUser(caller, attempt.user) : actorOf(caller),
      data: { id: attempt.user?.id ?? null, email: attempt.email, reason: attempt.reason },
    });
  });
}

/** A pending step: its challenge goes to the browser in a short-lived cookie. */
async function pendingStep(
  tx: Db,
  user: UserRow,
  remember: boolean,
  purpose: 'two_step' | 'password_change',
): Promise<SignInOutcome> {
  const challenge = randomToken();
  const seconds = purpose === 'two_step' ? TWO_STEP_SECONDS : PASSWORD_CHANGE_SECONDS;
  await insertChallenge(tx, {
    tokenHash: sha256(challenge),
    userId: user.id,
    remember,
    expiresAt: new Date(Date.now() + seconds * 1000),
    purpose,
  });
  return { kind: purpose, challenge };
}

/** The session itself, once every step is done. */
async function openSession(
  ctx: AuthContext,
  tx: Db,
  emit: Emit,
  caller: Caller,
  user: UserRow,
  remember: boolean,
  step: Step,
): Promise<SignInOutcome> {
  const session = await startSession(ctx, tx, user.id, remember, seenFrom(caller));
  const signedIn = await updateUser(tx, user.id, { lastSignInAt: new Date() });
  const method = step === 'password_change' ? 'password' : step;
  emit({
    type: 'user.signed_in',
    companyId: user.companyId,
    actor: actorOfUser(caller, user),
    data: { id: user.id, email: user.email, method },
  });
  return { kind: 'session', user: signedIn, session };
}

/** The session, or the next step, after a correct password (or code, or a provider's word). */
async function completeSignIn(
  ctx: AuthContext,
  caller: Caller,
  user: UserRow,
  remember: boolean,
  keys: ThrottleKeys,
  step: Step,
  challengeHash?: string,
): Promise<SignInOutcome> {
  return ctx.transact(async (tx, emit) => {
    await countSuccess(tx, keys);
    if (challengeHash) await deleteChallenge(tx, challengeHash);
    // Two-step verification stands even when a provider vouched for the email.
    if (step !== 'two_step' && user.twoStepEnabled) return pendingStep(tx, user, remember, 'two_step');
    if (user.passwordChangeRequired) return pendingStep(tx, user, remember, 'password_change');
    return openSession(ctx, tx, emit, caller, user, remember, step);
  });
}

/** A blocked account: a switched-off company is told so (403); anything else gets `message` (401). */
async function refuseBlocked(db: Db, user: UserRow, message: string): Promise<void> {
  const reason = await blockedReason(db, user);
  if (reason === 'company_suspended') throw companySuspended();
  if (reason) throw unauthorized(message);
}

/** Accounts the email may mean: in the company of `domain`, or every account with that email. */
async function candidatesFor(
  db: Db,
  email: string,
  domain: string | undefined,
): Promise<{ users: UserRow[]; companyId: string | null }> {
  if (domain === undefined) return { users: await findByEmail(db, email), companyId: null };
  const company = await findCompanyByDomain(db, domain);
  return company
    ? { users: await findByEmail(db, email, company.id), companyId: company.id }
    : { users: [], companyId: null };
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
    // The domain's company requires its own sign-in: said before any password is checked (the
    // sign-in page's discovery says as much), unless the e-mail is a platform administrator's.
    const ssoCompany = await domainRequiresSso(ctx.db, body.email);
    if (ssoCompany && (companyId === null || companyId === ssoCompany) && !users.some((u) => u.companyId === null)) {
      await failAttempt(ctx, caller, { email: body.email, companyId: ssoCompany, reason: 'sso_required', keys });
      throw ssoRequired();
    }
    const matches: UserRow[] = [];
    if (users.length === 0) await verifyPassword(null, body.password);
    for (const user of users) if (await verifyPassword(user.passwordHash, body.password)) matches.push(user);
    if (matches.length === 0) {
      await failAttempt(ctx, caller, {
        email: body.email,
        user: users.length === 1 ? users[0] : undefined,
        companyId,
        reason: 'invalid_credentials',
        keys,
      });
      // An invited account has no password yet: whoever tries is told how to get one rather than left guessing.
      if (users.length > 0 && users.every((u) => u.status === 'invited'))
        throw new HttpError(401, AUTH_MESSAGES.invitationPending, AUTH_CODES.invitationPending);
      throw unauthorized(MESSAGES.invalidCredentials);
    }
    // Only someone who knows the password learns that the email is in several workspaces.
    if (matches.length > 1)
      throw conflict('This email is used in several workspaces: sign in with your company domain', {
        field: 'body.domain',
      });
    const user = matches[0]!;
    // Someone of a company that requires its own sign-in, with an e-mail outside its domains.
    if (await userRequiresSso(ctx.db, user)) {
      await failAttempt(ctx, caller, { email: body.email, user, companyId, reason: 'sso_required', keys });
      throw ssoRequired();
    }
    // Only after the right password: the person learns their company is switched off, a stranger nothing.
    if (await blockedReason(ctx.db, user)) {
      await failAttempt(ctx, caller, { email: body.email, user, companyId, reason: 'disabled', keys });
      await refuseBlocked(ctx.db, user, MESSAGES.invalidCredentials);
    }
    const outcome = await completeSignIn(ctx, caller, user, body.remember ?? false, keys, 'password');
    return { ...outcome, knownDevice: knownDeviceCookie(ctx.box, account, device) };
  }

  /**
   * Signs in an account a provider vouched for (no password): Google or X (`provider`), or the
   * company's own identity provider (`sso`). Two-step verification still stands.
   */
  async signInVerified(
    caller: Caller,
    user: UserRow,
    remember: boolean,
    method: 'provider' | 'sso' = 'provider',
  ): Promise<SignInOutcome> {
    const { ctx } = this;
    return completeSignIn(
      ctx,
      caller,
      user,
      remember,
      passwordKeys(accountKey(user.email, undefined), caller.ip, null),
      method,
    );
  }

  /**
   * Signs in someone who has just chosen their password with their invitation link (which proved
   * the mailbox); null when their company is switched off, so they sign in later as usual.
   */
  async signInAccepted(caller: Caller, user: UserRow): Promise<SignInOutcome | null> {
    const { ctx } = this;
    if (await blockedReason(ctx.db, user)) return null;
    return completeSignIn(
      ctx,
      caller,
      user,
      false,
      passwordKeys(accountKey(user.email, undefined), caller.ip, null),
      'password',
    );
  }

  /** The second step: the code from the authenticator app (or a recovery code), for the pending sign-in of the cookie. */
  async verifyTwoStep(caller: Caller, code: string): Promise<SignInOutcome> {
    const { ctx } = this;
    const challengeHash = caller.twoStepToken ? sha256(caller.twoStepToken) : undefined;
    const challenge = challengeHash ? await findChallenge(ctx.db, challengeHash, 'two_step') : undefined;
    if (!challenge || !challengeHash) throw unauthorized(STEP_EXPIRED);
    const keys = codeKeys(challenge.userId, caller.ip);
    const user = await findUser(ctx.db, challenge.userId, EVERYONE);
    if (!user || !user.twoStepEnabled || !user.twoStepSecret) throw unauthorized(STEP_EXPIRED);
    const wait = await waitFor(ctx.db, keys);
    if (wait > 0) {
      await failAttempt(ctx, caller, { email: user.email, user, companyId: user.companyId, reason: 'throttled', keys });
      throw throttled(wait);
    }
    // Each code works once (a time step or a recovery code is claimed atomically): a replay fails.
    const fresh = await useTwoStepCode(ctx, ctx.db, user, code);
    if (!fresh) {
      await failAttempt(ctx, caller, {
        email: user.email,
        user,
        companyId: user.companyId,
        reason: 'invalid_code',
        keys,
      });
      throw unauthorized(INVALID_CODE);
    }
    await refuseBlocked(ctx.db, user, STEP_EXPIRED);
    return completeSignIn(ctx, caller, user, challenge.remember, keys, 'two_step', challengeHash);
  }

  /**
   * The last step after signing in with a one-time password: the new password replaces it (it must
   * differ), every older session and reset link ends, and the session starts.
   */
  async changeRequiredPassword(caller: Caller, password: string): Promise<SignInOutcome> {
    const { ctx } = this;
    const challengeHash = caller.passwordChangeToken ? sha256(caller.passwordChangeToken) : undefined;
    const challenge = challengeHash ? await findChallenge(ctx.db, challengeHash, 'password_change') : undefined;
    const user = challenge ? await findUser(ctx.db, challenge.userId, EVERYONE) : undefined;
    if (!challenge || !challengeHash || !user?.passwordChangeRequired) throw unauthorized(STEP_EXPIRED);
    await refuseBlocked(ctx.db, user, STEP_EXPIRED);
    if (await verifyPassword(user.passwordHash, password)) {
      throw badRequest(AUTH_MESSAGES.samePassword, [{ field: 'body.password', message: AUTH_MESSAGES.samePassword }]);
    }
    const passwordHash = await hashPassword(password);
    const { outcome, ended } = await ctx.transact(async (tx, emit) => {
      const locked = await lockUser(tx, user.id, EVERYONE);
      // Used once: a second request with the same challenge finds it gone.
      if (!locked?.passwordChangeRequired || !(await findChallenge(tx, challengeHash, 'password_change')))
        throw unauthorized(STEP_EXPIRED);
      await deleteChallenge(tx, challengeHash);
      const changed = await updateUser(tx, user.id, { passwordHash, passwordChangeRequired: false });
      await voidResets(tx, user.id);
      const actor = actorOfUser(caller, changed);
      emit({
        type: 'user.password_changed',
        companyId: changed.companyId,
        actor,
        data: { id: changed.id, via: 'profile' },
      });
      const ended = await recordEnded(ctx, tx, emit, {
        sessionIds: await revokeUserSessions(tx, user.id),
        userId: user.id,
        companyId: changed.companyId,
        reason: 'password_changed',
        actor,
      });
      return {
        outcome: await openSession(ctx, tx, emit, caller, changed, challenge.remember, 'password_change'),
        ended,
      };
    });
    announceEnded(ctx, ended);
    return outcome;
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
    const outcome = await ctx.transact(
      async (tx, emit): Promise<{ user: UserRow; session: Session } | EndedSessions | 'company_suspended' | null> => {
        const row = await consumeRefreshToken(tx, hash);
        if (!row) {
          const recent = await usedWithin(tx, hash, REFRESH_GRACE_SECONDS);
          if (recent?.successorSealed) {
            const user = await findUser(tx, recent.userId, EVERYONE);
            if (user && !(await blockedReason(tx, user)))
              return { user, session: resumedSession(ctx, recent, ctx.box.open(recent.successorSealed)) };
          }
          const known = await findRefreshToken(tx, hash);
          if (!known) return null;
          const owner = await findUser(tx, known.userId, EVERYONE);
          // Suspending a company revoked its sessions: the holder of one learns why it ended.
          if (owner && (await blockedReason(tx, owner)) === 'company_suspended') return 'company_suspended';
          if (!known.usedAt || known.revokedAt) return null;
          const actor = owner ? actorOfUser(caller, owner) : actorOf(caller);
          emit({
            type: 'user.session_revoked',
            companyId: owner?.companyId ?? null,
            actor,
            data: { id: known.userId, reason: 'refresh_token_reused' },
          });
          return recordEnded(ctx, tx, emit, {
            sessionIds: await revokeFamily(tx, known.familyId),
            userId: known.userId,
            companyId: owner?.companyId ?? null,
            reason: 'refresh_token_reused',
            actor,
          });
        }
        const user = await findUser(tx, row.userId, EVERYONE);
        const blocked = user ? await blockedReason(tx, user) : 'disabled';
        if (!user || blocked) {
          await revokeFamily(tx, row.familyId);
          return blocked === 'company_suspended' ? blocked : null;
        }
        const session = await startSession(ctx, tx, user.id, row.remember, seenFrom(caller), row.familyId);
        await recordSuccessor(tx, hash, ctx.box.seal(session.refreshToken));
        return { user, session };
      },
    );
    // An open page whose company was just suspended is sent to sign-in with the reason.
    if (outcome === 'company_suspended') throw companySuspended();
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
      return recordEnded(ctx, tx, emit, {
        sessionIds: families,
        userId,
        companyId: user?.companyId ?? caller.identity?.companyId ?? null,
        reason: 'signed_out',
        actor,
      });
    });
    announceEnded(ctx, ended);
  }
}
