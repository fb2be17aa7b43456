// The users page's form schemas (the contracts' own field rules) and role choices.
import { z } from 'zod';
import { Password, RegisterUserFields, UpdateUserBody, type UserDetailDto } from '@earshot/contracts';
import type { Role } from '@earshot/contracts/constants';
import type { NewUser, RoleOption } from './users-api';

/**
 * The roles the caller may give. The server already leaves out what it would refuse; an ADMIN
 * never sees HOST_ADMIN offered even if an older server listed it.
 */
export function roleOptions(roles: readonly RoleOption[], callerRole: Role | null): RoleOption[] {
  return roles.filter(
    (role) => role.assignable !== false && (callerRole === 'HOST_ADMIN' || role.code !== 'HOST_ADMIN'),
  );
}

export function userRole(user: UserDetailDto): Role {
  return user.roles.role.code;
}

export function fullName(user: Pick<UserDetailDto, 'firstName' | 'lastName'>): string {
  return `${user.firstName} ${user.lastName}`.trim();
}

/**
 * Create: the register body's fields; the company is required when a HOST_ADMIN creates anyone but
 * another HOST_ADMIN (ADMINs always create in their own company); an invitation, or a password (generated,
 * or checked only when set by hand).
 */
export function createUserSchema(callerIsHost: boolean, companyRequired: string) {
  return RegisterUserFields.pick({ firstName: true, lastName: true, email: true, role: true })
    .extend({
      companyId: z.string(),
      access: z.enum(['invite', 'password']),
      passwordMode: z.enum(['generate', 'set']),
      password: z.string(),
    })
    .superRefine((form, ctx) => {
      if (callerIsHost && form.role !== 'HOST_ADMIN' && !form.companyId)
        ctx.addIssue({ code: 'custom', path: ['companyId'], message: companyRequired });
      if (form.access === 'password' && form.passwordMode === 'set') {
        for (const issue of Password.safeParse(form.password).error?.issues ?? [])
          ctx.addIssue({ code: 'custom', path: ['password'], message: issue.message });
      }
    });
}
export type CreateUserInput = z.input<ReturnType<typeof createUserSchema>>;
export type CreateUserValues = z.output<ReturnType<typeof createUserSchema>>;

export function toNewUser(values: CreateUserValues, callerIsHost: boolean): NewUser {
  const { access, passwordMode, password, companyId, ...rest } = values;
  return {
    ...rest,
    ...(callerIsHost && companyId && values.role !== 'HOST_ADMIN' ? { companyId } : {}),
    ...(access === 'invite' ? { invite: true } : passwordMode === 'set' ? { password } : {}),
  };
}

/** The status is left out for someone invited: they become active by choosing their password. */
export const EditUserSchema = UpdateUserBody.pick({
  firstName: true,
  lastName: true,
  role: true,
  status: true,
}).required({ firstName: true, lastName: true, role: true });
export type EditUserInput = z.input<typeof EditUserSchema>;
export type EditUserValues = z.output<typeof EditUserSchema>;
