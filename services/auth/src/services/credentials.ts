import { badRequest, conflict, type Identity } from '@earshot/kit';
import { findCompanyByDomain } from '../repositories/companies';
import { consumeReset, insertReset, keepNewestResets, revokeUserSessions, voidResets } from '../repositories/tokens';
import { findByEmail, findUser, lockUser, updateUser } from '../repositories/users';
import { EVERYONE, actorOf, actorOfUser, type AuthContext, type Caller } from './context';
import { randomToken, sha256 } from './crypto';
import { hashPassword, verifyPassword } from './passwords';
import { accountBlocked, announceEnded, recordEnded } from './sessions';
import { generateSecret, matchStep, otpauthUrl } from './totp';
import { ownAccount } from './users';

export const RESET_INVALID = 'This reset link is invalid or has expired';
/** A reset link works once, for this long. */
export const RESET_SECONDS = 30 * 60;
/** Live reset links per account: asking again voids the oldest, so a flood of requests cannot pile up working links. */
export const MAX_LIVE_RESETS = 3;
const WRONG_PASSWORD = 'Your current password is not correct';

/**
 * Where reset links point: PUBLIC_URL, else the local console. Never the request's Host header,
 * which whoever asks for the link controls.
 */
function linkBase(ctx: AuthContext): string {
  return (ctx.config.PUBLIC_URL ?? `http://localhost:${ctx.config.PORT}`).replace(/\/+$/, '');
}

/** Passwords, reset links and two-step verification of one's own account (constructed once per mount). */
export class CredentialService {
  constructor(private readonly ctx: AuthContext) {}

  async changePassword(caller: Caller, identity: Identity, currentPassword: string, newPassword: string): Promise<void> {
    const { ctx } = this;
    const user = await ownAccount(ctx.db, identity);
    if (!(await verifyPassword(user.passwordHash, currentPassword))) {
      throw badRequest(WRONG_PASSWORD, [{ field: 'body.currentPassword', message: WRONG_PASSWORD }]);
    }
    const passwordHash = await hashPassword(newPassword);
    const keep = identity.sessionId;
    const ended = await ctx.transact(async (tx, emit) => {
      await updateUser(tx, user.id, { passwordHash });
      await voidResets(tx, user.id);
      const actor = actorOf(caller, identity);
      emit({ type: 'user.password_changed', companyId: user.companyId, actor, data: { id: user.id, via: 'profile' } });
      // Every other session ends; the one that changed the password stays signed in.
      const sessionIds = await revokeUserSessions(tx, user.id, keep);
      return recordEnded(ctx, tx, emit, { sessionIds, userId: user.id, companyId: user.companyId, reason: 'password_changed', actor });
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
    if (domain !== undefined) {
      const company = await findCompanyByDomain(ctx.db, domain);
      users = company ? users.filter((u) => u.companyId === company.id) : [];
    }
    for (const user of users) {
      if (await accountBlocked(ctx.db, user)) continue;
      const token = randomToken();
      const resetUrl = `${linkBase(ctx)}/reset-password?token=${encodeURIComponent(token)}`;
      await ctx.transact(async (tx, emit) => {
        // Under the user's row lock, so parallel requests cannot leave more live links than allowed.
        await lockUser(tx, user.id, EVERYONE);
        await insertReset(tx, { tokenHash: sha256(token), userId: user.id, expiresAt: new Date(Date.now() + RESET_SECONDS * 1000) });
        await keepNewestResets(tx, user.id, MAX_LIVE_RESETS);
        emit({ type: 'user.password_reset_requested', companyId: user.companyId, actor: actorOf(caller), data: { id: user.id, email: user.email, resetUrl } });
      });
    }
  }

  async resetPassword(caller: Caller, token: string, password: string): Promise<void> {
    const { ctx } = this;
    const passwordHash = await hashPassword(password);
    const done = await ctx.transact(async (tx, emit) => {
      const reset = await consumeReset(tx, sha256(token));
      const user = reset ? await findUser(tx, reset.userId, EVERYONE) : undefined;
      if (!user) return null;
      await updateUser(tx, user.id, { passwordHash });
      await voidResets(tx, user.id);
      const actor = actorOfUser(caller, user);
      emit({ type: 'user.password_changed', companyId: user.companyId, actor, data: { id: user.id, via: 'reset' } });
      return recordEnded(ctx, tx, emit, { sessionIds: await revokeUserSessions(tx, user.id), userId: user.id, companyId: user.companyId, reason: 'password_changed', actor });
    });
    announceEnded(ctx, done);
    if (!done) throw badRequest(RESET_INVALID, [{ field: 'body.token', message: RESET_INVALID }]);
  }

  async setupTwoStep(identity: Identity): Promise<{ secret: string; otpauthUrl: string }> {
    const { ctx } = this;
    const user = await ownAccount(ctx.db, identity);
    if (user.twoStepEnabled) throw conflict('Two-step verification is already on: turn it off first to set it up again');
    const secret = generateSecret();
    await updateUser(ctx.db, user.id, { twoStepPendingSecret: ctx.box.seal(secret) });
    return { secret, otpauthUrl: otpauthUrl(ctx.config.TWO_STEP_ISSUER, user.email, secret) };
  }

  async enableTwoStep(caller: Caller, identity: Identity, code: string): Promise<void> {
    const { ctx } = this;
    await ctx.transact(async (tx, emit) => {
      const user = await ownAccount(tx, identity, true);
      if (user.twoStepEnabled) throw conflict('Two-step verification is already on');
      if (!user.twoStepPendingSecret) throw badRequest('Set up two-step verification first');
      const step = matchStep(ctx.box.open(user.twoStepPendingSecret), code);
      if (step === null) throw badRequest('Invalid verification code', [{ field: 'body.code', message: 'Invalid verification code' }]);
      await updateUser(tx, user.id, { twoStepEnabled: true, twoStepSecret: user.twoStepPendingSecret, twoStepPendingSecret: null, twoStepLastStep: step });
      emit({ type: 'user.two_step_changed', companyId: user.companyId, actor: actorOf(caller, identity), data: { id: user.id, enabled: true } });
    });
  }

  async disableTwoStep(caller: Caller, identity: Identity, password: string): Promise<void> {
    const { ctx } = this;
    const user = await ownAccount(ctx.db, identity);
    if (!(await verifyPassword(user.passwordHash, password))) {
      throw badRequest(WRONG_PASSWORD, [{ field: 'body.password', message: WRONG_PASSWORD }]);
    }
    await ctx.transact(async (tx, emit) => {
      await updateUser(tx, user.id, { twoStepEnabled: false, twoStepSecret: null, twoStepPendingSecret: null, twoStepLastStep: null });
      if (user.twoStepEnabled) emit({ type: 'user.two_step_changed', companyId: user.companyId, actor: actorOf(caller, identity), data: { id: user.id, enabled: false } });
    });
  }
}
