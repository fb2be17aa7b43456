import type { FastifyRequest } from 'fastify';
import type { Actor, Role, UserDetailDto, UserDto } from '@earshot/contracts';
import { NO_COMPANY, actorOf as actorOfIdentity, type Identity, type ServiceContext } from '@earshot/kit';
import type { AuthConfig } from '../config';
import type { UserRow } from '../db/schema';
import type { Scope } from '../repositories/users';
import { SecretBox } from '@earshot/kit';

export type AuthContext = ServiceContext<AuthConfig>;

const boxes = new WeakMap<AuthContext, SecretBox>();
/** The service's at-rest encryption (two-step secrets). */
export function secretBox(ctx: AuthContext): SecretBox {
  let box = boxes.get(ctx);
  if (!box) {
    box = new SecretBox(ctx.config.SECRETS_KEY, ctx.config.JWT_SECRET ?? 'earshot');
    boxes.set(ctx, box);
  }
  return box;
}


/** The users a caller may see: their company, or for a HOST_ADMIN every company (or the one asked for). */
export function scopeFor(identity: Identity, requestedCompanyId?: string): Scope {
  if (identity.role === 'HOST_ADMIN') return requestedCompanyId ? { all: false, companyId: requestedCompanyId } : { all: true };
  return { all: false, companyId: identity.companyId ?? NO_COMPANY };
}

export const EVERYONE: Scope = { all: true };

export function actorOf(request: FastifyRequest, identity?: Identity | null): Actor {
  return identity ? actorOfIdentity(identity, request.ip) : { type: 'user', id: null, ip: request.ip };
}

export function actorOfUser(request: FastifyRequest, user: UserRow): Actor {
  return actorOfIdentity({ userId: user.id, email: user.email, role: user.role as Role, companyId: user.companyId }, request.ip);
}

/** What events may say about a user: never hashes or secrets. */
export function userState(user: UserRow) {
  return { email: user.email, firstName: user.firstName, lastName: user.lastName, role: user.role as Role, companyId: user.companyId, status: user.status as 'active' | 'disabled' };
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
  };
}

export function toUserDetailDto(user: UserRow): UserDetailDto {
  return {
    ...toUserDto(user),
    status: user.status as UserDetailDto['status'],
    twoStepEnabled: user.twoStepEnabled,
    lastSignInAt: user.lastSignInAt?.toISOString() ?? null,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}
