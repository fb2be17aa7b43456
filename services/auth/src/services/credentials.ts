import { domainRequiresSso, ssoRequired, userRequiresSso } from './sso-required';
import { badRequest, conflict, type Identity } from '@earshot/kit';
import { findCompany, findCompanyByDomain } from '../repositories/companies';
import { replaceRecoveryCodes } from '../repositories/recovery-codes';
import { consumeReset, insertReset, keepNewestResets, revokeUserSessions, voidResets } from '../repositories/tokens';
import { findByEmail, findUser, lockUser, updateUser } from '../repositories/users';
import type { UserRow } from '../db/schema';
import { EVERYONE, actorOf, actorOfUser, passwordLink, userState, type AuthContext, type Caller } from './context';
import { randomToken, sha256 } from './crypto';
import { hashPassword, verifyPassword } from './passwords';
import { accountBlocked, announceEnded, recordEnded } from './sessions';
import { INVALID_CODE } from './sign-in';
import { codeKeys, countFailure, countSuccess, throttled, waitFor } from './throttle';
import { generateSecret, matchStep, otpauthUrl } from './totp';
import { newRecoveryCodes, useTwoStepCode } from './two-step';
import { ownAccount } from './users';

export const RESET_INVALID = 'This reset link is invalid or has expired';
/** A reset link works once, for this long. */
export const RESET_SECONDS = 30 * 60;
/** Live reset links per account: asking again voids the oldest, so a flood of requests cannot pile up working links. */
export const MAX_LIVE_RESETS = 3;
const WRONG_PASSWORD = 'Your current password is not correct';

/** Passwords, reset links and two-step verification of one's own account (constructed once per mount). */
export class CredentialService {
  constructor(private readonly ctx: AuthContext) {}

  async changePassword(
    caller: Caller,
    identity: Identity,
    currentPassword: string,
    newPassword: string,
  ): Promise<void> {
    const { ctx } = this;
    const user = await ownAccount(ctx.db, identity);
    if (!(await verifyPassword(user.passwordHash, currentPassword))) {
      throw badRequest(WRONG_PASSWORD, [{ field: 'body.currentPassword', message: WRONG_PASSWORD }]);
    }
    const passwordHash = await hashPassword(newPassword);
    const keep = identity.sessionId;
    const ended = await ctx.transact(async (tx, emit) => {
      await updateUser(tx, user.id, { passwordHash, passwordChangeRequired: false });
      await voidResets(tx, user.id);
      const actor = actorOf(caller, identity);
      emit({ type: 'user.password_changed', companyId: user.companyId, actor, data: { id: user.id, via: 'profile' } });
      // Every other session ends; the one that changed the password stays signed in.
      const sessionIds = await revokeUserSessions(tx, user.id, keep);
      return recordEnded(ctx, tx, emit, {
        sessionIds,
        userId: user.id,
        companyId: user.companyId,
        reason: 'password_changed',
        actor,
      });
    });
    announceEnded(ctx, ended);
  }

  /**
   * Creates a single-use reset link for each active account with this email (in the domain's company
   * when given) and announces it; the caller always gets the same answer, so nobody learns whether
   * an email has an account.
   */
  async requestReset(caller: Caller, email: string, domain?: string): Promise<void> {
    const { ctx } = this;
    let users = await findByEmail(ctx.db, email);
    if ((await domainRequiresSso(ctx.db, email)) && !users.some((u) => u.companyId === null)) throw ssoRequired();
    if (domain !== undefined) {
      const company = await findCompanyByDomain(ctx.db, domain);
      users = company ? users.filter((u) => u.companyId === company.id) : [];
    }
    for (const user of users) {
      // Nobody of a company that requires its own sign-in gets a password (and the answer stays the same).
      if ((await accountBlocked(ctx.db, user)) || (await userRequiresSso(ctx.db, user))) continue;
      const token = randomToken();
      const resetUrl = passwordLink(
        ctx,
        token,
        'reset',
        user.companyId ? ((await findCompany(ctx.db, user.companyId))?.domain ?? null) : null,
      );
      await ctx.transact(async (tx, emit) => {
        // Under the user's row lock, so parallel requests cannot leave more live links than allowed.
        await lockUser(tx, user.id, EVERYONE);
        await insertReset(tx, {
          tokenHash: sha256(token),
          userId: user.id,
          expiresAt: new Date(Date.now() + RESET_SECONDS * 1000),
        });
        await keepNewestResets(tx, user.id, MAX_LIVE_RESETS);
        emit({
          type: 'user.password_reset_requested',
          companyId: user.companyId,
          actor: actorOf(caller),
          data: {
            id: user.id,
            email: user.email,
            firstName: user.firstName,
            lastName: user.lastName,
            sealedLink: ctx.mailBox.seal(resetUrl),
            expiresInMinutes: RESET_SECONDS / 60,
          },
        });
      });
    }
  }

  /**
   * Sets the password with a reset or an invitation link (single use). An accepted invitation makes
   * the waiting account active and is answered, so the route can sign the person in.
   */
  async resetPassword(caller: Caller, token: string, password: string): Promise<UserRow | null> {
    const { ctx } = this;
    const passwordHash = await hashPassword(password);
    const done = await ctx.transact(async (tx, emit) => {
      const reset = await consumeReset(tx, sha256(token));
      const user = reset ? await findUser(tx, reset.userId, EVERYONE) : undefined;
      if (!reset || !user) return null;
      if (await userRequiresSso(tx, user)) throw ssoRequired();
      const invitation = reset.purpose === 'invitation';
      // An invitation link only ever opens a waiting account, and nothing else opens one.
      if (invitation !== (user.status === 'invited')) return null;
      const after = await updateUser(tx, user.id, {
        passwordHash,
        passwordChangeRequired: false,
        ...(invitation ? { status: 'active' } : {}),
      });
      await voidResets(tx, user.id);
      const actor = actorOfUser(caller, user);
      if (invitation)
        emit({
          type: 'user.updated',
          companyId: user.companyId,
          actor,
          data: { id: user.id, before: userState(user), after: userState(after) },
        });
      emit({ type: 'user.password_changed', companyId: user.companyId, actor, data: { id: user.id, via: 'reset' } });
      const ended = await recordEnded(ctx, tx, emit, {
        sessionIds: await revokeUserSessions(tx, user.id),
        userId: user.id,
        companyId: user.companyId,
        reason: 'password_changed',
        actor,
      });
      return { ended, accepted: invitation ? after : null };
    });
    if (!done) throw badRequest(RESET_INVALID, [{ field: 'body.token', message: RESET_INVALID }]);
    announceEnded(ctx, done.ended);
    return done.accepted;
  }

  async setupTwoStep(identity: Identity): Promise<{ secret: string; otpauthUrl: string }> {
    const { ctx } = this;
    const user = await ownAccount(ctx.db, identity);
    if (user.twoStepEnabled)
      throw conflict('Two-step verification is already on: turn it off first to set it up again');
    const secret = await generateSecret();
    await updateUser(ctx.db, user.id, { twoStepPendingSecret: ctx.box.seal(secret) });
    return { secret, otpauthUrl: await otpauthUrl(ctx.config.TWO_STEP_ISSUER, user.email, secret) };
  }

  /** Turns two-step on with a code from the app; answers the recovery codes, this once. */
  async enableTwoStep(caller: Caller, identity: Identity, code: string): Promise<string[]> {
    const { ctx } = this;
    return ctx.transact(async (tx, emit) => {
      const user = await ownAccount(tx, identity, true);
      if (user.twoStepEnabled) throw conflict('Two-step verification is already on');
      if (!user.twoStepPendingSecret) throw badRequest('Set up two-step verification first');
      const step = await matchStep(ctx.box.open(user.twoStepPendingSecret), code);
      if (step === null) throw badRequest(INVALID_CODE, [{ field: 'body.code', message: INVALID_CODE }]);
      await updateUser(tx, user.id, {
        twoStepEnabled: true,
        twoStepSecret: user.twoStepPendingSecret,
        twoStepPendingSecret: null,
        twoStepLastStep: step,
      });
      emit({
        type: 'user.two_step_changed',
        companyId: user.companyId,
        actor: actorOf(caller, identity),
        data: { id: user.id, enabled: true },
      });
      return newRecoveryCodes(tx, user.id);
    });
  }

  /**
   * Turns two-step off: a current code from the app (or a recovery code) proves the phone, not just
   * the session. Wrong codes count towards the same throttle as at sign-in.
   */
  async disableTwoStep(caller: Caller, identity: Identity, code: string): Promise<void> {
    const { ctx } = this;
    const keys = codeKeys(identity.userId, caller.ip);
    const wait = await waitFor(ctx.db, keys);
    if (wait > 0) throw throttled(wait);
    const done = await ctx.transact(async (tx, emit) => {
      const user = await ownAccount(tx, identity, true);
      if (!user.twoStepEnabled) throw conflict('Two-step verification is already off');
      if (!(await useTwoStepCode(ctx, tx, user, code))) return false;
      await updateUser(tx, user.id, {
        twoStepEnabled: false,
        twoStepSecret: null,
        twoStepPendingSecret: null,
        twoStepLastStep: null,
      });
      await replaceRecoveryCodes(tx, user.id, []);
      await countSuccess(tx, keys);
      emit({
        type: 'user.two_step_changed',
        companyId: user.companyId,
        actor: actorOf(caller, identity),
        data: { id: user.id, enabled: false },
      });
      return true;
    });
    if (!done) {
      await countFailure(ctx.db, keys);
      throw badRequest(INVALID_CODE, [{ field: 'body.code', message: INVALID_CODE }]);
    }
  }
}
