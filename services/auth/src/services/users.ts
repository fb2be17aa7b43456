import { ROLES, type Role, type RegisterUserBody, type UpdateUserBody, type UserListQuery } from '@earshot/contracts';
import { badRequest, conflict, forbidden, isUniqueViolation, notFound, type Db, type Identity } from '@earshot/kit';
import type { UserRow } from '../db/schema';
import { findCompany } from '../repositories/companies';
import { revokeUserSessions, voidResets } from '../repositories/tokens';
import { announceEnded, recordEnded, type EndReason } from './sessions';
import * as repo from '../repositories/users';
import { actorOf, scopeFor, userState, type AuthContext } from './context';
import { hashPassword } from './passwords';

export const ROLE_INFO: Record<Role, { name: string; description: string }> = {
  HOST_ADMIN: { name: 'Platform administrator', description: 'Runs the platform: companies, features, prompts, pricing, B2C users, audit logs, e-mail templates, AI configuration, and every company\'s users.' },
  ADMIN: { name: 'Company administrator', description: 'Manages the company\'s users, clients, custom GPTs and AI features; uses chat and transcripts.' },
  USER: { name: 'User', description: 'Uploads recordings, works with transcripts and chats with the assistant.' },
  CALLER: { name: 'Caller', description: 'Works with transcripts, chat and the company\'s clients.' },
};

/** Roles a caller may give: a company administrator never creates platform administrators. */
export function assignableRoles(identity: Identity): Role[] {
  return identity.role === 'HOST_ADMIN' ? [...ROLES] : ROLES.filter((r) => r !== 'HOST_ADMIN');
}

const USER_NOT_FOUND = 'User';
const COMPANY_NOT_FOUND = 'Company';
const PLATFORM_NO_COMPANY = 'A platform administrator belongs to no company: leave companyId out';
const COMPANY_REQUIRED = 'companyId is required for this role';

function checkAssignable(identity: Identity, role: Role | undefined) {
  if (role && !assignableRoles(identity).includes(role)) throw forbidden('Your role cannot give the role ' + role);
}

/** The company a new or moved account joins must exist, and have room (checked under its row lock). */
async function checkCompanyRoom(tx: Db, companyId: string): Promise<void> {
  const company = await findCompany(tx, companyId, true);
  if (!company) throw notFound(COMPANY_NOT_FOUND);
  if (company.maxUsers !== null && (await repo.countInCompany(tx, companyId)) >= company.maxUsers) {
    throw conflict(`This company has reached its limit of ${company.maxUsers} users`);
  }
}

async function checkEmailFree(tx: Db, email: string, companyId: string | null, exceptId?: string): Promise<void> {
  if (await repo.emailTaken(tx, email, companyId, exceptId)) throw conflict('A user with this email already exists in this company', { field: 'body.email' });
}

async function guardUnique<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('A user with this email already exists in this company', { field: 'body.email' });
    throw error;
  }
}

/** The caller's own account (a token whose account was deleted finds nothing). */
export async function ownAccount(db: Db, identity: Identity, lock = false): Promise<UserRow> {
  const scope = { all: true } as const;
  const user = lock ? await repo.lockUser(db, identity.userId, scope) : await repo.findUser(db, identity.userId, scope);
  if (!user) throw notFound(USER_NOT_FOUND);
  return user;
}

/** The users API and one's own profile (constructed once per mount). */
export class UserService {
  constructor(private readonly ctx: AuthContext) {}

  async registerUser(identity: Identity, body: RegisterUserBody): Promise<UserRow> {
    const { ctx } = this;
    checkAssignable(identity, body.role);
    let companyId: string | null;
    if (body.role === 'HOST_ADMIN') {
      if (body.companyId) throw badRequest(PLATFORM_NO_COMPANY, [{ field: 'body.companyId', message: PLATFORM_NO_COMPANY }]);
      companyId = null;
    } else if (identity.role === 'HOST_ADMIN') {
      if (!body.companyId) throw badRequest(COMPANY_REQUIRED, [{ field: 'body.companyId', message: COMPANY_REQUIRED }]);
      companyId = body.companyId;
    } else {
      // A company administrator creates users in their own company only.
      if (!identity.companyId || (body.companyId && body.companyId !== identity.companyId)) throw notFound(COMPANY_NOT_FOUND);
      companyId = identity.companyId;
    }
    const passwordHash = await hashPassword(body.password);
    return guardUnique(ctx.transact(async (tx, emit) => {
      if (companyId) await checkCompanyRoom(tx, companyId);
      await checkEmailFree(tx, body.email, companyId);
      const user = await repo.insertUser(tx, {
        companyId, email: body.email, firstName: body.firstName, lastName: body.lastName, avatar: body.avatar ?? null, role: body.role, passwordHash,
      });
      emit({ type: 'user.created', companyId, actor: actorOf(identity, identity), data: { id: user.id, after: userState(user) } });
      return user;
    }));
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
      scope: scopeFor(identity, query.companyId), q: query.q || undefined, role: query.role, page: query.page, pageSize: query.pageSize,
    });
    return { rows, page: query.page, pageSize: query.pageSize, total, totalPages: Math.ceil(total / query.pageSize) };
  }

  async dropdown(identity: Identity, companyId?: string) {
    const { ctx } = this;
    const rows = await repo.dropdownUsers(ctx.db, scopeFor(identity, companyId));
    return rows.map((r) => ({ _id: r.id, name: `${r.firstName} ${r.lastName}`.trim() }));
  }

  async updateUserById(identity: Identity, id: string, body: UpdateUserBody): Promise<UserRow> {
    const { ctx } = this;
    checkAssignable(identity, body.role);
    if (body.companyId !== undefined && identity.role !== 'HOST_ADMIN') throw forbidden('Only platform administrators move users between companies');
    const self = id === identity.userId;
    if (self && ((body.role && body.role !== identity.role) || body.status === 'disabled' || body.companyId !== undefined)) {
      throw badRequest('You cannot change your own role, status or company');
    }
    const passwordHash = body.password ? await hashPassword(body.password) : undefined;
    const { after, ended } = await guardUnique(ctx.transact(async (tx, emit) => {
      const before = await repo.lockUser(tx, id, scopeFor(identity));
      if (!before) throw notFound(USER_NOT_FOUND);
      const role = body.role ?? (before.role as Role);
      const companyId = body.companyId !== undefined ? body.companyId : role === 'HOST_ADMIN' ? null : before.companyId;
      if (role === 'HOST_ADMIN' && companyId !== null) throw badRequest(PLATFORM_NO_COMPANY, [{ field: 'body.companyId', message: PLATFORM_NO_COMPANY }]);
      if (role !== 'HOST_ADMIN' && companyId === null) throw badRequest(COMPANY_REQUIRED, [{ field: 'body.companyId', message: COMPANY_REQUIRED }]);
      if (companyId !== null && companyId !== before.companyId) await checkCompanyRoom(tx, companyId);
      const email = body.email ?? before.email;
      if (email !== before.email || companyId !== before.companyId) await checkEmailFree(tx, email, companyId, id);

      const after = await repo.updateUser(tx, id, {
        firstName: body.firstName, lastName: body.lastName, avatar: body.avatar, email, role, companyId, status: body.status, passwordHash,
      });
      const actor = actorOf(identity, identity);
      // A token states the role and company: when either changes, or the account is switched off or
      // given a new password, its sessions end and the person signs in again.
      const reason: EndReason | null =
        after.status !== 'active' && before.status === 'active' ? 'disabled'
        : companyId !== before.companyId ? 'company_changed'
        : role !== before.role ? 'role_changed'
        : passwordHash !== undefined ? 'password_changed'
        : null;
      const ended = reason ? await recordEnded(ctx, tx, emit, { sessionIds: await revokeUserSessions(tx, id), userId: id, companyId: before.companyId, reason, actor }) : null;
      if (passwordHash) {
        await voidResets(tx, id);
        emit({ type: 'user.password_changed', companyId: after.companyId, actor, data: { id, via: 'admin' } });
      }
      const [b, a] = [userState(before), userState(after)];
      if (JSON.stringify(b) !== JSON.stringify(a) || before.avatar !== after.avatar) {
        emit({ type: 'user.updated', companyId: after.companyId, actor, data: { id, before: b, after: a } });
      }
      return { after, ended };
    }));
    announceEnded(ctx, ended);
    return after;
  }

  async deleteUserById(identity: Identity, id: string): Promise<void> {
    const { ctx } = this;
    if (id === identity.userId) throw badRequest('You cannot delete your own account');
    const ended = await ctx.transact(async (tx, emit) => {
      const before = await repo.lockUser(tx, id, scopeFor(identity));
      if (!before) throw notFound(USER_NOT_FOUND);
      const actor = actorOf(identity, identity);
      // Before the rows go (they cascade with the user), so the sessions are known and refused.
      const ended = await recordEnded(ctx, tx, emit, { sessionIds: await revokeUserSessions(tx, id), userId: id, companyId: before.companyId, reason: 'deleted', actor });
      await repo.deleteUser(tx, id);
      emit({ type: 'user.deleted', companyId: before.companyId, actor, data: { id, before: userState(before) } });
      return ended;
    });
    announceEnded(ctx, ended);
  }

  async updateProfile(identity: Identity, body: { firstName?: string; lastName?: string; avatar?: string | null }): Promise<UserRow> {
    const { ctx } = this;
    return ctx.transact(async (tx, emit) => {
      const before = await ownAccount(tx, identity, true);
      const after = await repo.updateUser(tx, before.id, body);
      emit({ type: 'user.updated', companyId: after.companyId, actor: actorOf(identity, identity), data: { id: after.id, before: userState(before), after: userState(after) } });
      return after;
    });
  }
}
