import { z } from 'zod';
import { PASSWORD_RULES, ROLES, USER_STATUSES } from '../constants';
import { Email, Id, Name, PageQuery } from '../common';

/** The signed-in user as the console stores it (spec part 3: stored user). */
export const UserDto = z.object({
  _id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  avatar: z.string().nullable(),
  companyId: z.string().nullable(),
  roles: z.object({ role: z.object({ code: z.enum(ROLES) }) }),
});
export type UserDto = z.infer<typeof UserDto>;

/** A user as administrators see it in the users API. */
export const UserDetailDto = UserDto.extend({
  status: z.enum(USER_STATUSES),
  twoStepEnabled: z.boolean(),
  lastSignInAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type UserDetailDto = z.infer<typeof UserDetailDto>;

/** Password policy (PASSWORD_RULES): long passphrases welcome, bounded so hashing cannot be abused. */
export const Password = z.string()
  .min(PASSWORD_RULES.minLength, `must be at least ${PASSWORD_RULES.minLength} characters`)
  .max(PASSWORD_RULES.maxLength, `must be at most ${PASSWORD_RULES.maxLength} characters`);
export const Domain = z.string().trim().toLowerCase().min(1).max(63).regex(/^[a-z0-9-]+$/, 'must be a subdomain (letters, digits, dashes)');
/** Where uploaded images are served (the file service's uploads route). */
export const UPLOADED_IMAGE_PREFIX = '/api/uploads/';
const UPLOADED_IMAGE = /^\/api\/uploads\/(?!.*\.\.)(?!.*\/\/)[A-Za-z0-9._\-/]+$/;
/**
 * An avatar is an uploaded image (/api/uploads/...) or an https URL: javascript:, data:, file:,
 * http: and anything else would run, leak or mix content where the console shows it.
 */
export const Avatar = z.string().trim().max(2048).refine((value) => {
  if (value.startsWith(UPLOADED_IMAGE_PREFIX)) return UPLOADED_IMAGE.test(value);
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}, `must be an uploaded image (${UPLOADED_IMAGE_PREFIX}...) or an https:// URL`).nullable();

export const LoginBody = z.object({
  email: Email,
  // Checked against the stored hash only: no policy here, so old passwords still sign in.
  password: z.string().min(1).max(200),
  domain: Domain.optional(),
  remember: z.boolean().optional(),
}).strict();
export type LoginBody = z.infer<typeof LoginBody>;

export const LoginResponse = z.object({ user: UserDto });
export type LoginResponse = z.infer<typeof LoginResponse>;
export const TwoStepRequiredResponse = z.object({ twoStepRequired: z.literal(true) });
export type TwoStepRequiredResponse = z.infer<typeof TwoStepRequiredResponse>;

export const RefreshBody = z.object({ refreshToken: z.string().min(1).max(200).optional() }).strict();
export const RefreshResponse = z.object({ token: z.string(), refreshToken: z.string().optional() });

export const TwoStepCode = z.string().trim().regex(/^\d{6}$/, 'must be 6 digits');
export const TwoStepVerifyBody = z.object({ code: TwoStepCode }).strict();
export type TwoStepVerifyBody = z.infer<typeof TwoStepVerifyBody>;
export const TwoStepSetupResponse = z.object({ secret: z.string(), otpauthUrl: z.string() });
export const TwoStepEnableBody = z.object({ code: TwoStepCode }).strict();
export const TwoStepDisableBody = z.object({ password: z.string().min(1).max(200) }).strict();

export const ForgotPasswordBody = z.object({ email: Email, domain: Domain.optional() }).strict();
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBody>;
export const ResetPasswordBody = z.object({ token: z.string().min(1).max(200), password: Password }).strict();
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

/** The auth service's public signing keys (RFC 7517), Ed25519 only. */
export const JwksResponse = z.object({
  keys: z.array(z.object({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: z.string(), kid: z.string(), alg: z.literal('EdDSA'), use: z.literal('sig') })),
});
export type JwksResponse = z.infer<typeof JwksResponse>;

export const ProviderDto = z.object({ id: z.enum(['google', 'x']), name: z.string(), enabled: z.boolean(), startUrl: z.string().optional() });
export type ProviderDto = z.infer<typeof ProviderDto>;
export const ProvidersResponse = z.object({ providers: z.array(ProviderDto) });
export type ProvidersResponse = z.infer<typeof ProvidersResponse>;

export const ProfileUpdateBody = z.object({
  firstName: Name(100).optional(),
  lastName: Name(100).optional(),
  avatar: Avatar.optional(),
}).strict();

export const ChangePasswordBody = z.object({ currentPassword: z.string().min(1).max(200), newPassword: Password }).strict();

export const RegisterUserBody = z.object({
  firstName: Name(100),
  lastName: Name(100),
  email: Email,
  password: Password,
  role: z.enum(ROLES),
  companyId: Id.optional(),
  avatar: Avatar.optional(),
}).strict();
export type RegisterUserBody = z.infer<typeof RegisterUserBody>;

export const UpdateUserBody = z.object({
  firstName: Name(100).optional(),
  lastName: Name(100).optional(),
  email: Email.optional(),
  avatar: Avatar.optional(),
  role: z.enum(ROLES).optional(),
  status: z.enum(USER_STATUSES).optional(),
  /** HOST_ADMIN only: move the user to another company (null for platform administrators). */
  companyId: Id.nullable().optional(),
  /** Set a new password for the user; their sessions end. */
  password: Password.optional(),
}).strict();
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

export const UserListQuery = PageQuery.extend({
  q: z.string().trim().max(100).optional(),
  companyId: Id.optional(),
  role: z.enum(ROLES).optional(),
}).strict();
export type UserListQuery = z.infer<typeof UserListQuery>;

export const DropdownQuery = z.object({ companyId: Id.optional() }).strict();

export const RoleDto = z.object({ code: z.enum(ROLES), name: z.string(), description: z.string() });
