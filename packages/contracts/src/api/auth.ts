import { z } from 'zod';
import { AVATAR_URL_PREFIX, PASSWORD_RULES, ROLES, SETTABLE_USER_STATUSES, USER_STATUSES } from '../constants';
import { LANGUAGES } from './tenant';
import { Email, Id, Name, PageQuery } from '../common';

/** The signed-in user as the console stores it (stored user). */
export const UserDto = z.object({
  _id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  avatar: z.string().nullable(),
  companyId: z.string().nullable(),
  roles: z.object({ role: z.object({ code: z.enum(ROLES) }) }),
  /** The console's language for this person (null or absent: the company's); sign-in switches to it. */
  language: z.enum(LANGUAGES).nullable().optional(),
  /** The person's monthly credits cap (null: none); the header shows what is left of it. */
  monthlyCredits: z.number().nullable().optional(),
});
export type UserDto = z.infer<typeof UserDto>;

/** A user with account details: the profile, and the base of what administrators see. */
export const UserDetailDto = UserDto.extend({
  /** The same as roles.role.code, flat for tables. */
  role: z.enum(ROLES),
  status: z.enum(USER_STATUSES),
  twoStepEnabled: z.boolean(),
  lastSignInAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type UserDetailDto = z.infer<typeof UserDetailDto>;

/** A user as the users API answers it (list rows, one user, after an edit). */
export const AdminUserDto = UserDetailDto.extend({
  /** The company's name (null for platform administrators, or a company auth has not heard of). */
  companyName: z.string().nullable(),
  /** Signs in with a one-time password and must choose a new one first. */
  passwordChangeRequired: z.boolean(),
  /** Invited: when the live invitation link expires (null when there is none, or it has expired). */
  invitationExpiresAt: z.string().nullable(),
  /** The person's monthly credits cap (null: none), set with PUT /users/{id}/cap. */
  monthlyCredits: z.number().nullable(),
});
export type AdminUserDto = z.infer<typeof AdminUserDto>;

/** A created user: without a password in the request, the one-time password, shown this once. */
export const CreatedUserDto = AdminUserDto.extend({ temporaryPassword: z.string().optional() });
export type CreatedUserDto = z.infer<typeof CreatedUserDto>;

/** A one-time password set by an administrator, shown once; the person must change it at sign-in. */
export const TemporaryPasswordResponse = z.object({ temporaryPassword: z.string() });
export type TemporaryPasswordResponse = z.infer<typeof TemporaryPasswordResponse>;

/** Password policy (PASSWORD_RULES): long passphrases welcome, bounded so hashing cannot be abused. */
export const Password = z
  .string()
  .min(PASSWORD_RULES.minLength, `must be at least ${PASSWORD_RULES.minLength} characters`)
  .max(PASSWORD_RULES.maxLength, `must be at most ${PASSWORD_RULES.maxLength} characters`);
export const Domain = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(63)
  .regex(/^[a-z0-9-]+$/, 'must be a subdomain (letters, digits, dashes)');
/** Where uploaded images are served (the file service's uploads route). */
export const UPLOADED_IMAGE_PREFIX = '/api/uploads/';
const UPLOADED_IMAGE = /^\/api\/uploads\/(?!.*\.\.)(?!.*\/\/)[A-Za-z0-9._\-/]+$/;
const AVATAR_URL = /^\/api\/users\/avatars\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\?v=\d{1,16}$/;
/**
 * An avatar is an uploaded picture, an uploaded image (/api/uploads/...) or an https URL:
 * javascript:, data:, file:, http: and anything else would run, leak or mix content where the
 * console shows it.
 */
export const Avatar = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => {
    if (value.startsWith(UPLOADED_IMAGE_PREFIX)) return UPLOADED_IMAGE.test(value);
    if (value.startsWith(AVATAR_URL_PREFIX)) return AVATAR_URL.test(value);
    try {
      const url = new URL(value);
      return url.protocol === 'https:' && url.username === '' && url.password === '';
    } catch {
      return false;
    }
  }, `must be an uploaded picture (${AVATAR_URL_PREFIX}...), an uploaded image (${UPLOADED_IMAGE_PREFIX}...) or an https:// URL`)
  .nullable();

export const LoginBody = z
  .object({
    email: Email,
    // Checked against the stored hash only: no policy here, so old passwords still sign in.
    password: z.string().min(1).max(200),
    domain: Domain.optional(),
    remember: z.boolean().optional(),
  })
  .strict();
export type LoginBody = z.infer<typeof LoginBody>;

export const LoginResponse = z.object({ user: UserDto });
export type LoginResponse = z.infer<typeof LoginResponse>;
export const TwoStepRequiredResponse = z.object({ twoStepRequired: z.literal(true) });
export type TwoStepRequiredResponse = z.infer<typeof TwoStepRequiredResponse>;
/** The password was a one-time password: choose a new one (POST /auth/password/change) to get the session. */
export const PasswordChangeRequiredResponse = z.object({ passwordChangeRequired: z.literal(true) });
export type PasswordChangeRequiredResponse = z.infer<typeof PasswordChangeRequiredResponse>;
export const ChangeRequiredPasswordBody = z.object({ password: Password }).strict();
export type ChangeRequiredPasswordBody = z.infer<typeof ChangeRequiredPasswordBody>;

export const RefreshBody = z.object({ refreshToken: z.string().min(1).max(200).optional() }).strict();
export const RefreshResponse = z.object({ token: z.string(), refreshToken: z.string().optional() });

export const TwoStepCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'must be 6 digits');
export const TwoStepSetupResponse = z.object({ secret: z.string(), otpauthUrl: z.string() });
export const TwoStepEnableBody = z.object({ code: TwoStepCode }).strict();
/** A one-time recovery code: ten letters and digits, the dash optional (shown as xxxxx-xxxxx). */
export const RecoveryCode = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9]{5}-?[a-z0-9]{5}$/, 'must be a recovery code (xxxxx-xxxxx)');
/** At the sign-in step and to turn two-step off: a code from the app, or one of the recovery codes. */
export const TwoStepAnyCode = z.union([TwoStepCode, RecoveryCode], {
  message: 'must be 6 digits or a recovery code (xxxxx-xxxxx)',
});
export const TwoStepVerifyBody = z.object({ code: TwoStepAnyCode }).strict();
export type TwoStepVerifyBody = z.infer<typeof TwoStepVerifyBody>;
export const TwoStepDisableBody = z.object({ code: TwoStepAnyCode }).strict();
/** Turned on: the recovery codes, answered this once (only their hashes are kept). */
export const TwoStepEnabledResponse = z.object({ message: z.string(), recoveryCodes: z.array(z.string()) });
export type TwoStepEnabledResponse = z.infer<typeof TwoStepEnabledResponse>;
export type TwoStepSetupResponse = z.infer<typeof TwoStepSetupResponse>;

/** One signed-in session of one's own (a refresh family): where and when it was last seen. */
export const SessionDto = z.object({
  _id: z.string(),
  /** Readable, from the browser's user agent ("Chrome on Windows"). */
  device: z.string(),
  address: z.string(),
  lastSeenAt: z.string(),
  createdAt: z.string(),
  /** The session this request came from. */
  current: z.boolean(),
});
export type SessionDto = z.infer<typeof SessionDto>;
/** Someone to ask for help (the support page): a company administrator. */
export const SupportContactDto = z.object({ name: z.string(), email: z.string() });
export type SupportContactDto = z.infer<typeof SupportContactDto>;
/**
 * What the console sends when a page failed to render: the error's kind and message and where it
 * happened, never what the person typed or saw (the route pattern, not the full address with its query).
 */
export const ClientErrorReportBody = z
  .object({
    name: z.string().trim().min(1).max(100),
    message: z.string().trim().max(500),
    /** The page's path without query or fragment. */
    path: z
      .string()
      .trim()
      .min(1)
      .max(300)
      .regex(/^\/[^?#]*$/, 'must be a path without query or fragment'),
    /** The build's first few stack frames, file names and lines only. */
    stack: z.string().max(2_000).optional(),
  })
  .strict();
export type ClientErrorReportBody = z.infer<typeof ClientErrorReportBody>;
export const RevokedSessionsResponse = z.object({ revoked: z.number().int() });

export const ForgotPasswordBody = z.object({ email: Email, domain: Domain.optional() }).strict();
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBody>;
export const ResetPasswordBody = z.object({ token: z.string().min(1).max(200), password: Password }).strict();
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;
/** After an invitation link, the person is signed in: the user comes with the session cookies. */
export const ResetPasswordResponse = z.object({ message: z.string(), user: UserDto.optional() });
export type ResetPasswordResponse = z.infer<typeof ResetPasswordResponse>;

/** The auth service's public signing keys (RFC 7517), Ed25519 only. */
export const JwksResponse = z.object({
  keys: z.array(
    z.object({
      kty: z.literal('OKP'),
      crv: z.literal('Ed25519'),
      x: z.string(),
      kid: z.string(),
      alg: z.literal('EdDSA'),
      use: z.literal('sig'),
    }),
  ),
});
export type JwksResponse = z.infer<typeof JwksResponse>;

export const ProviderDto = z.object({
  id: z.enum(['google', 'x']),
  name: z.string(),
  enabled: z.boolean(),
  startUrl: z.string().optional(),
});
export type ProviderDto = z.infer<typeof ProviderDto>;
export const ProvidersResponse = z.object({ providers: z.array(ProviderDto) });
export type ProvidersResponse = z.infer<typeof ProvidersResponse>;

export const ProfileUpdateBody = z
  .object({
    firstName: Name(100).optional(),
    lastName: Name(100).optional(),
    avatar: Avatar.optional(),
    language: z.enum(LANGUAGES).nullable().optional(),
  })
  .strict();
export type ProfileUpdateBody = z.infer<typeof ProfileUpdateBody>;

export const ChangePasswordBody = z
  .object({ currentPassword: z.string().min(1).max(200), newPassword: Password })
  .strict();
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

const INVITE_OR_PASSWORD = 'give either a password or invite: true, not both';
/** The register body's fields (forms pick from these); RegisterUserBody adds the rule between them. */
export const RegisterUserFields = z
  .object({
    firstName: Name(100),
    lastName: Name(100),
    email: Email,
    /** Left out (without invite): a one-time password is made, answered once, and must be changed at the first sign-in. */
    password: Password.optional(),
    /** true instead of a password: the person is mailed an invitation link to choose their own (status invited until then). */
    invite: z.literal(true).optional(),
    role: z.enum(ROLES),
    companyId: Id.optional(),
    avatar: Avatar.optional(),
  })
  .strict();
export const RegisterUserBody = RegisterUserFields.superRefine((body, ctx) => {
  if (body.invite && body.password !== undefined)
    ctx.addIssue({ code: 'custom', path: ['invite'], message: INVITE_OR_PASSWORD });
});
export type RegisterUserBody = z.infer<typeof RegisterUserBody>;

export const UpdateUserBody = z
  .object({
    firstName: Name(100).optional(),
    lastName: Name(100).optional(),
    email: Email.optional(),
    avatar: Avatar.optional(),
    role: z.enum(ROLES).optional(),
    status: z.enum(SETTABLE_USER_STATUSES).optional(),
    /** HOST_ADMIN only: move the user to another company (null for platform administrators). */
    companyId: Id.nullable().optional(),
    /** Set a new password for the user; their sessions end. */
    password: Password.optional(),
  })
  .strict();
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

export const UserListQuery = PageQuery.extend({
  q: z.string().trim().max(100).optional(),
  companyId: Id.optional(),
  role: z.enum(ROLES).optional(),
  status: z.enum(USER_STATUSES).optional(),
}).strict();
export type UserListQuery = z.infer<typeof UserListQuery>;

export const DropdownQuery = z.object({ companyId: Id.optional() }).strict();

export const UserDropdownItem = z.object({ _id: z.string(), name: z.string(), email: z.string() });
export type UserDropdownItem = z.infer<typeof UserDropdownItem>;

/** Every role, and whether the caller may give it (a company administrator never gives HOST_ADMIN). */
export const RoleDto = z.object({
  code: z.enum(ROLES),
  name: z.string(),
  description: z.string(),
  assignable: z.boolean(),
});
export type RoleDto = z.infer<typeof RoleDto>;

/** Consumer users: the people of companies of type b2c (HOST_ADMIN). */
export const B2cUserQuery = UserListQuery.omit({ role: true });
export type B2cUserQuery = z.infer<typeof B2cUserQuery>;

export const B2cUserDto = z.object({
  _id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  companyId: z.string(),
  companyName: z.string().nullable(),
  status: z.enum(USER_STATUSES),
  /** Recordings this person uploaded that still exist. */
  recordings: z.number().int(),
  /** Bytes of those recordings. */
  storageUsed: z.number(),
  lastSignInAt: z.string().nullable(),
  createdAt: z.string(),
});
export type B2cUserDto = z.infer<typeof B2cUserDto>;
