import {
  type Actor,
  AUTH_CODES,
  AUTH_MESSAGES,
  INVITATION_DAYS,
  ROLES,
  type B2cUserDto,
  type B2cUserQuery,
  type ProfileUpdateBody,
  type Role,
  type RegisterUserBody,
  type UpdateUserBody,
  type UserCapBody,
  type UserCapDto,
  type UserListQuery,
} from '@earshot/contracts';
import {
  HttpError,
  badRequest,
  conflict,
  forbidden,
  isUniqueViolation,
  notFound,
  type Db,
  type Emit,
  type Identity,
} from '@earshot/kit';
import type { UserRow } from '../db/schema';
import { companiesByIds, findCompany } from '../repositories/companies';
import { insertReset, liveInvitations, revokeUserSessions, voidResets } from '../repositories/tokens';
import { usageOf } from '../repositories/usage';
import { announceEnded, recordEnded, type EndReason, type EndedSessions } from './sessions';
import * as repo from '../repositories/users';
import { actorOf, passwordLink, scopeFor, toAdminUserDto, userState, type AuthBase, type AuthContext } from './context';
import { randomToken, sha256 } from './crypto';
import { hashPassword, randomPassword } from './passwords';

export const ROLE_INFO: Record<Role, { name: string; description: string }> = {
  HOST_ADMIN: {
    name: 'Platform administrator',
    description:
      "Runs the platform: companies, features, prompts, pricing, B2C users, audit logs, e-mail templates, AI configuration, and every company's users.",
  },
  ADMIN: {
    name: 'Company administrator',
    description: "Manages the company's users, clients, custom GPTs and AI features; uses chat and transcripts.",
  },
  USER: { name: 'User', description: 'Uploads recordings, works with transcripts and chats with the assistant.' },
  CALLER: { name: 'Caller', description: "Works with transcripts, chat and the company's clients." },
};

/** Roles a caller may give: a company administrator never creates platform administrators. */
export function assignableRoles(identity: Identity): Role[] {
  return identity.role === 'HOST_ADMIN' ? [...ROLES] : ROLES.filter((r) => r !== 'HOST_ADMIN');
}

const USER_NOT_FOUND = 'User';
const COMPANY_NOT_FOUND = 'Company';
const PLATFORM_NO_COMPANY = 'A platform administrator belongs to no company: leave companyId out';
const COMPANY_REQUIRED = 'companyId is required for this role';
const NO_CAP_FOR_PLATFORM = 'A platform administrator belongs to no company and spends no company credits';

function checkAssignable(identity: Identity, role: Role | undefined) {
  if (role && !assignableRoles(identity).includes(role)) throw forbidden('Your role cannot give the role ' + role);
}

/**
 * The company a new or moved account joins must exist, and have room. Counted under the company's
 * row lock in the projection, so concurrent creations queue and never overshoot the limit.
 */
async function checkCompanyRoom(tx: Db, companyId: string): Promise<void> {
  const room = await companyRoom(tx, companyId);
  if (room === 'no_company') throw notFound(COMPANY_NOT_FOUND);
  if (room === 'full')
    throw new HttpError(409, AUTH_MESSAGES.userLimit, AUTH_CODES.userLimit, [
      { field: 'body.companyId', message: AUTH_MESSAGES.userLimit },
    ]);
}

/** Whether a company of the projection can take one more account (takes the company's row lock). */
export async function companyRoom(tx: Db, companyId: string): Promise<'room' | 'full' | 'no_company'> {
  const company = await findCompany(tx, companyId, true);
  if (!company) return 'no_company';
  if (company.maxUsers !== null && (await repo.countInCompany(tx, companyId)) >= company.maxUsers) return 'full';
  return 'room';
}

/** An active ADMIN about to stop being one must not be the company's last (under the company's row lock). */
export async function checkNotLastAdmin(
  tx: Db,
  before: UserRow,
  after: { role: string; status: string; companyId: string | null } | null,
): Promise<void> {
  const wasAdmin = before.role === 'ADMIN' && before.status === 'active' && before.companyId !== null;
  const staysAdmin =
    after !== null && after.role === 'ADMIN' && after.status === 'active' && after.companyId === before.companyId;
  if (!wasAdmin || staysAdmin) return;
  if (!(await findCompany(tx, before.companyId!, true))) return;
  if ((await repo.countActiveAdmins(tx, before.companyId!)) <= 1)
    throw new HttpError(409, AUTH_MESSAGES.lastAdmin, AUTH_CODES.lastAdmin);
}

/**
 * Deletes an account the one way both an administrator's delete and a person's erasure do: its
 * sessions end (recorded before the rows cascade with the user, so they are known and refused),
 * the account and what cascades with it (picture, tokens, codes) go, and user.deleted tells every
 * other service. Announce the ended sessions with `announceEnded` after the commit.
 */
export async function removeAccount(
  ctx: AuthBase,
  tx: Db,
  emit: Emit,
  before: UserRow,
  actor: Actor,
): Promise<EndedSessions> {
  const ended = await recordEnded(ctx, tx, emit, {
    sessionIds: await revokeUserSessions(tx, before.id),
    userId: before.id,
    companyId: before.companyId,
    reason: 'deleted',
    actor,
  });
  await repo.deleteUser(tx, before.id);
  emit({
    type: 'user.deleted',
    companyId: before.companyId,
    actor,
    data: { id: before.id, before: userState(before) },
  });
  return ended;
}

const EMAIL_TAKEN = 'A user with this email already exists in this company';
const emailTaken = () => conflict(EMAIL_TAKEN, [{ field: 'body.email', message: EMAIL_TAKEN }]);

async function checkEmailFree(tx: Db, email: string, companyId: string | null, exceptId?: string): Promise<void> {
  if (await repo.emailTaken(tx, email, companyId, exceptId)) throw emailTaken();
}

async function guardUnique<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
}

/** The caller's own account (a token whose account was deleted finds nothing). */
export async function ownAccount(db: Db, identity: Identity, lock = false): Promise<UserRow> {
  const user = lock
    ? await repo.lockUser(db, identity.userId, { all: true })
    : await repo.findOwnAccount(db, identity.userId);
  if (!user) throw notFound(USER_NOT_FOUND);
  return user;
}

/** Users as the users API answers them: with their companies' names. */
export async function adminView(db: Db, rows: UserRow[]) {
  const companies = await companiesByIds(db, [
    ...new Set(rows.map((r) => r.companyId).filter((id): id is string => id !== null)),
  ]);
  const invitations = await liveInvitations(
    db,
    rows.filter((r) => r.status === 'invited').map((r) => r.id),
  );
  return rows.map((row) => toAdminUserDto(row, companies, invitations));
}

/** An invitation link works once, for this long. */
export const INVITATION_SECONDS = INVITATION_DAYS * 24 * 60 * 60;
/**
 * What an invited account holds instead of a password hash: no password verifies against it, so
 * nobody signs in until the invitation link sets a real one.
 */
export const NO_PASSWORD = '';

/**
 * A fresh invitation link for an invited user (in `tx`, under the user's row lock): every earlier
 * link stops working, and the sealed link rides on user.invited for the mail sender.
 */
async function invite(
  ctx: AuthContext,
  tx: Db,
  emit: Emit,
  identity: Identity,
  user: UserRow,
  resent: boolean,
): Promise<void> {
  const token = randomToken();
  await voidResets(tx, user.id);
  await insertReset(tx, {
    tokenHash: sha256(token),
    userId: user.id,
    purpose: 'invitation',
    expiresAt: new Date(Date.now() + INVITATION_SECONDS * 1000),
  });
  emit({
    type: 'user.invited',
    companyId: user.companyId,
    actor: actorOf(identity, identity),
    data: {
      id: user.id,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      sealedLink: ctx.mailBox.seal(
        passwordLink(
          ctx,
          token,
          'invitation',
          user.companyId ? ((await findCompany(tx, user.companyId))?.domain ?? null) : null,
        ),
      ),
      expiresInDays: INVITATION_DAYS,
      resent,
    },
  });
}

/** The invited user the caller may see, locked (another company's is a 404, an active one a 409). */
async function lockInvited(tx: Db, identity: Identity, id: string): Promise<UserRow> {
  const user = await repo.lockUser(tx, id, scopeFor(identity));
  if (!user) throw notFound(USER_NOT_FOUND);
  if (user.status !== 'invited') throw conflict(AUTH_MESSAGES.notInvited);
  return user;
}
const STILL_INVITED = 'This user is invited: they become active when they choose their password (or set one for them)';

/** The users API and one's own profile (constructed once per mount). */
export class UserService {
  constructor(private readonly ctx: AuthContext) {}

  /**
   * Without a password in the body, a one-time password is made and answered (once); it must be
   * changed at sign-in. With invite, the person is mailed a link to choose their own and stays
   * invited (unable to sign in) until they do.
   */
  async registerUser(
    identity: Identity,
    body: RegisterUserBody,
  ): Promise<{ user: UserRow; temporaryPassword?: string }> {
    const { ctx } = this;
    checkAssignable(identity, body.role);
    let companyId: string | null;
    if (body.role === 'HOST_ADMIN') {
      if (body.companyId)
        throw badRequest(PLATFORM_NO_COMPANY, [{ field: 'body.companyId', message: PLATFORM_NO_COMPANY }]);
      companyId = null;
    } else if (identity.role === 'HOST_ADMIN') {
      if (!body.companyId) throw badRequest(COMPANY_REQUIRED, [{ field: 'body.companyId', message: COMPANY_REQUIRED }]);
      companyId = body.companyId;
    } else {
      // A company administrator creates users in their own company only.
      if (!identity.companyId || (body.companyId && body.companyId !== identity.companyId))
        throw notFound(COMPANY_NOT_FOUND);
      companyId = identity.companyId;
    }
    const temporaryPassword = body.password === undefined && !body.invite ? randomPassword() : undefined;
    const passwordHash = body.invite ? NO_PASSWORD : await hashPassword(body.password ?? temporaryPassword!);
    const user = await guardUnique(
      ctx.transact(async (tx, emit) => {
        if (companyId) await checkCompanyRoom(tx, companyId);
        await checkEmailFree(tx, body.email, companyId);
        const user = await repo.insertUser(tx, {
          companyId,
          email: body.email,
          firstName: body.firstName,
          lastName: body.lastName,
          avatar: body.avatar ?? null,
          role: body.role,
          passwordHash,
          passwordChangeRequired: temporaryPassword !== undefined,
          status: body.invite ? 'invited' : 'active',
        });
        emit({
          type: 'user.created',
          companyId,
          actor: actorOf(identity, identity),
          data: { id: user.id, after: userState(user) },
        });
        if (body.invite) await invite(ctx, tx, emit, identity, user, false);
        return user;
      }),
    );
    return { user, temporaryPassword };
  }

  /** A new invitation link for someone still invited: the earlier one stops working, and the mail goes again. */
  async resendInvitation(identity: Identity, id: string): Promise<UserRow> {
    const { ctx } = this;
    return ctx.transact(async (tx, emit) => {
      const user = await lockInvited(tx, identity, id);
      await invite(ctx, tx, emit, identity, user, true);
      return user;
    });
  }

  /** Withdraws an invitation: its link stops working and the account, which never signed in, is deleted. */
  async revokeInvitation(identity: Identity, id: string): Promise<void> {
    const { ctx } = this;
    await ctx.transact(async (tx, emit) => {
      const user = await lockInvited(tx, identity, id);
      const actor = actorOf(identity, identity);
      // The tokens cascade with the account; voided first so the order of events matches what happened.
      await voidResets(tx, id);
      emit({ type: 'user.invitation_revoked', companyId: user.companyId, actor, data: { id, email: user.email } });
      await repo.deleteUser(tx, id);
      emit({ type: 'user.deleted', companyId: user.companyId, actor, data: { id, before: userState(user) } });
    });
  }

  async getUser(identity: Identity, id: string): Promise<UserRow> {
    const { ctx } = this;
    const user = await repo.findUser(ctx.db, id, scopeFor(identity));
    if (!user) throw notFound(USER_NOT_FOUND);
    return user;
  }

  async listUsers(identity: Identity, query: UserListQuery) {
    const { ctx } = this;
    const { rows, total } = await repo.listUsers(ctx.db, {
      scope: scopeFor(identity, query.companyId),
      q: query.q || undefined,
      role: query.role,
      status: query.status,
      page: query.page,
      pageSize: query.pageSize,
    });
    return { rows, page: query.page, pageSize: query.pageSize, total, totalPages: Math.ceil(total / query.pageSize) };
  }

  async dropdown(identity: Identity, companyId?: string) {
    const { ctx } = this;
    const rows = await repo.dropdownUsers(ctx.db, scopeFor(identity, companyId));
    return rows.map((r) => ({ _id: r.id, name: `${r.firstName} ${r.lastName}`.trim(), email: r.email }));
  }

  /** Every role, and whether this caller may give it. */
  roles(identity: Identity) {
    const mine = assignableRoles(identity);
    return ROLES.map((code) => ({ code, ...ROLE_INFO[code], assignable: mine.includes(code) }));
  }

  /** The people of consumer (b2c) companies with what they stored (platform administrators). */
  async listB2cUsers(query: B2cUserQuery) {
    const { ctx } = this;
    const { rows, total } = await repo.listB2cUsers(ctx.db, {
      q: query.q || undefined,
      companyId: query.companyId,
      status: query.status,
      page: query.page,
      pageSize: query.pageSize,
    });
    const usage = await usageOf(
      ctx.db,
      rows.map((r) => r.user.id),
    );
    const items: B2cUserDto[] = rows.map(({ user, companyName }) => ({
      _id: user.id,
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      companyId: user.companyId!,
      companyName,
      status: user.status as B2cUserDto['status'],
      recordings: usage.get(user.id)?.recordings ?? 0,
      storageUsed: usage.get(user.id)?.storageUsed ?? 0,
      lastSignInAt: user.lastSignInAt?.toISOString() ?? null,
      createdAt: user.createdAt.toISOString(),
    }));
    return { items, page: query.page, pageSize: query.pageSize, total, totalPages: Math.ceil(total / query.pageSize) };
  }

  async updateUserById(identity: Identity, id: string, body: UpdateUserBody): Promise<UserRow> {
    const { ctx } = this;
    checkAssignable(identity, body.role);
    if (body.companyId !== undefined && identity.role !== 'HOST_ADMIN')
      throw forbidden('Only platform administrators move users between companies');
    const self = id === identity.userId;
    if (
      self &&
      ((body.role && body.role !== identity.role) || body.status === 'disabled' || body.companyId !== undefined)
    ) {
      throw badRequest('You cannot change your own role, status or company');
    }
    const passwordHash = body.password ? await hashPassword(body.password) : undefined;
    const { after, ended } = await guardUnique(
      ctx.transact(async (tx, emit) => {
        const before = await repo.lockUser(tx, id, scopeFor(identity));
        if (!before) throw notFound(USER_NOT_FOUND);
        // Someone invited becomes active by choosing their password (or when given one here), never by a switch.
        if (before.status === 'invited' && body.status !== undefined)
          throw badRequest(STILL_INVITED, [{ field: 'body.status', message: STILL_INVITED }]);
        const role = body.role ?? (before.role as Role);
        const companyId =
          body.companyId !== undefined ? body.companyId : role === 'HOST_ADMIN' ? null : before.companyId;
        if (role === 'HOST_ADMIN' && companyId !== null)
          throw badRequest(PLATFORM_NO_COMPANY, [{ field: 'body.companyId', message: PLATFORM_NO_COMPANY }]);
        if (role !== 'HOST_ADMIN' && companyId === null)
          throw badRequest(COMPANY_REQUIRED, [{ field: 'body.companyId', message: COMPANY_REQUIRED }]);
        await checkNotLastAdmin(tx, before, { role, status: body.status ?? before.status, companyId });
        if (companyId !== null && companyId !== before.companyId) await checkCompanyRoom(tx, companyId);
        const email = body.email ?? before.email;
        if (email !== before.email || companyId !== before.companyId) await checkEmailFree(tx, email, companyId, id);

        const after = await repo.updateUser(tx, id, {
          firstName: body.firstName,
          lastName: body.lastName,
          avatar: body.avatar,
          email,
          role,
          companyId,
          passwordHash,
          status: passwordHash !== undefined && before.status === 'invited' ? 'active' : body.status,
          // A password the administrator chose is the person's own from now on.
          passwordChangeRequired: passwordHash !== undefined ? false : undefined,
        });
        const actor = actorOf(identity, identity);
        // A token states the role and company: when either changes, or the account is switched off or
        // given a new password, its sessions end and the person signs in again.
        const reason: EndReason | null =
          after.status !== 'active' && before.status === 'active'
            ? 'disabled'
            : companyId !== before.companyId
              ? 'company_changed'
              : role !== before.role
                ? 'role_changed'
                : passwordHash !== undefined
                  ? 'password_changed'
                  : null;
        const ended = reason
          ? await recordEnded(ctx, tx, emit, {
              sessionIds: await revokeUserSessions(tx, id),
              userId: id,
              companyId: before.companyId,
              reason,
              actor,
            })
          : null;
        if (passwordHash) {
          await voidResets(tx, id);
          emit({ type: 'user.password_changed', companyId: after.companyId, actor, data: { id, via: 'admin' } });
        }
        const [b, a] = [userState(before), userState(after)];
        if (JSON.stringify(b) !== JSON.stringify(a) || before.avatar !== after.avatar) {
          emit({ type: 'user.updated', companyId: after.companyId, actor, data: { id, before: b, after: a } });
        }
        return { after, ended };
      }),
    );
    announceEnded(ctx, ended);
    return after;
  }

  /**
   * A person's monthly credits cap (null: none): their company's ADMIN, or the platform
   * administrator. The tenant service learns it from user.updated and enforces it.
   */
  async setCap(identity: Identity, id: string, body: UserCapBody): Promise<UserCapDto> {
    return this.ctx.transact(async (tx, emit) => {
      const before = await repo.lockUser(tx, id, scopeFor(identity));
      if (!before) throw notFound(USER_NOT_FOUND);
      if (before.companyId === null)
        throw badRequest(NO_CAP_FOR_PLATFORM, [{ field: 'body.monthlyCredits', message: NO_CAP_FOR_PLATFORM }]);
      const after = await repo.updateUser(tx, id, { monthlyCredits: body.monthlyCredits });
      const [b, a] = [userState(before), userState(after)];
      if (b.monthlyCredits !== a.monthlyCredits) {
        emit({
          type: 'user.updated',
          companyId: after.companyId,
          actor: actorOf(identity, identity),
          data: { id, before: b, after: a },
        });
      }
      return { _id: id, monthlyCredits: a.monthlyCredits };
    });
  }

  async deleteUserById(identity: Identity, id: string): Promise<void> {
    const { ctx } = this;
    if (id === identity.userId) throw badRequest('You cannot delete your own account');
    const ended = await ctx.transact(async (tx, emit) => {
      const before = await repo.lockUser(tx, id, scopeFor(identity));
      if (!before) throw notFound(USER_NOT_FOUND);
      await checkNotLastAdmin(tx, before, null);
      return removeAccount(ctx, tx, emit, before, actorOf(identity, identity));
    });
    announceEnded(ctx, ended);
  }

  /**
   * A one-time password for someone else, answered once: they must choose a new one at their next
   * sign-in; every session of theirs and every reset link ends now.
   */
  async resetPassword(identity: Identity, id: string): Promise<string> {
    const { ctx } = this;
    if (id === identity.userId) throw badRequest('Change your own password in your profile');
    const temporaryPassword = randomPassword();
    const passwordHash = await hashPassword(temporaryPassword);
    const ended = await ctx.transact(async (tx, emit): Promise<EndedSessions> => {
      const user = await repo.lockUser(tx, id, scopeFor(identity));
      if (!user) throw notFound(USER_NOT_FOUND);
      if (user.status === 'invited') throw conflict('This user is invited: send the invitation again instead');
      await repo.updateUser(tx, id, { passwordHash, passwordChangeRequired: true });
      await voidResets(tx, id);
      const actor = actorOf(identity, identity);
      emit({ type: 'user.password_changed', companyId: user.companyId, actor, data: { id, via: 'admin' } });
      return recordEnded(ctx, tx, emit, {
        sessionIds: await revokeUserSessions(tx, id),
        userId: id,
        companyId: user.companyId,
        reason: 'password_changed',
        actor,
      });
    });
    announceEnded(ctx, ended);
    return temporaryPassword;
  }

  /** Turns someone's two-step verification off (a lost phone); they may set it up again after signing in. */
  async resetTwoStep(identity: Identity, id: string): Promise<UserRow> {
    const { ctx } = this;
    // Your own goes off in your profile, with your password.
    if (id === identity.userId) throw badRequest('Turn your own two-step verification off in your profile');
    return ctx.transact(async (tx, emit) => {
      const user = await repo.lockUser(tx, id, scopeFor(identity));
      if (!user) throw notFound(USER_NOT_FOUND);
      const after = await repo.updateUser(tx, id, {
        twoStepEnabled: false,
        twoStepSecret: null,
        twoStepPendingSecret: null,
        twoStepLastStep: null,
      });
      if (user.twoStepEnabled)
        emit({
          type: 'user.two_step_changed',
          companyId: user.companyId,
          actor: actorOf(identity, identity),
          data: { id, enabled: false },
        });
      return after;
    });
  }

  async updateProfile(identity: Identity, body: ProfileUpdateBody): Promise<UserRow> {
    const { ctx } = this;
    return ctx.transact(async (tx, emit) => {
      const before = await ownAccount(tx, identity, true);
      const after = await repo.updateUser(tx, before.id, body);
      emit({
        type: 'user.updated',
        companyId: after.companyId,
        actor: actorOf(identity, identity),
        data: { id: after.id, before: userState(before), after: userState(after) },
      });
      return after;
    });
  }
}
