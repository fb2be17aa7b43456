import {
  bigint,
  boolean,
  customType,
  integer,
  jsonb,
  numeric,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

export const auth = pgSchema('auth');
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** People who sign in. company_id null = a platform administrator (HOST_ADMIN). */
export const users = auth.table('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  companyId: uuid('company_id'),
  email: text('email').notNull(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  avatar: text('avatar'),
  role: text('role').notNull(),
  passwordHash: text('password_hash').notNull(),
  status: text('status').notNull().default('active'),
  twoStepEnabled: boolean('two_step_enabled').notNull().default(false),
  twoStepSecret: text('two_step_secret'),
  twoStepPendingSecret: text('two_step_pending_secret'),
  twoStepLastStep: bigint('two_step_last_step', { mode: 'number' }),
  lastSignInAt: ts('last_sign_in_at'),
  passwordChangeRequired: boolean('password_change_required').notNull().default(false),
  language: text('language'),
  monthlyCredits: numeric('monthly_credits', { precision: 18, scale: 4, mode: 'number' }),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
export type UserRow = typeof users.$inferSelect;

/** Rotating refresh tokens (only their SHA-256 is stored), grouped in families for reuse detection. */
export const refreshTokens = auth.table('refresh_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  familyId: uuid('family_id').notNull(),
  userId: uuid('user_id').notNull(),
  remember: boolean('remember').notNull(),
  expiresAt: ts('expires_at').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  usedAt: ts('used_at'),
  revokedAt: ts('revoked_at'),
  successorSealed: text('successor_sealed'),
});
export type RefreshTokenRow = typeof refreshTokens.$inferSelect;

/** What auth knows of companies, kept from tenant events (auth never reads tenant tables). */
export const companies = auth.table('companies', {
  id: uuid('id').primaryKey(),
  domain: text('domain').notNull(),
  name: text('name'),
  type: text('type'),
  status: text('status').notNull(),
  maxUsers: integer('max_users'),
  deletedAt: ts('deleted_at'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
export type CompanyRow = typeof companies.$inferSelect;

/** Failed sign-in counters per key (account+IP, IP, account), shared by every replica. */
export const signInThrottle = auth.table('sign_in_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  windowStartedAt: ts('window_started_at').notNull(),
  lockedUntil: ts('locked_until'),
});

/** A password that was right, waiting for the two-step code (the pending cookie holds the token). */
export const twoStepChallenges = auth.table('two_step_challenges', {
  tokenHash: text('token_hash').primaryKey(),
  userId: uuid('user_id').notNull(),
  remember: boolean('remember').notNull(),
  expiresAt: ts('expires_at').notNull(),
  purpose: text('purpose').notNull().default('two_step').$type<ChallengePurpose>(),
});
export type ChallengePurpose = 'two_step' | 'password_change';

/** Single-use password-setting tokens (hashed): reset links, and invitation links (see migration 0004). */
export const passwordResets = auth.table('password_resets', {
  tokenHash: text('token_hash').primaryKey(),
  userId: uuid('user_id').notNull(),
  purpose: text('purpose').notNull().default('reset').$type<ResetPurpose>(),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export type ResetPurpose = 'reset' | 'invitation';

/** Sessions ended while their access tokens may still be alive (see migration 0002). */
export const endedSessions = auth.table('ended_sessions', {
  sessionId: uuid('session_id').primaryKey(),
  until: ts('until').notNull(),
});

/** Recordings per uploader, from the file service's events (the consumer users list). */
export const fileUsage = auth.table('file_usage', {
  fileId: uuid('file_id').primaryKey(),
  companyId: uuid('company_id'),
  userId: uuid('user_id'),
  size: bigint('size', { mode: 'number' }).notNull(),
});

/** Where each session (refresh family) was signed in and last seen from (migration 0004). */
export const sessions = auth.table('sessions', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  userAgent: text('user_agent').notNull(),
  address: text('address').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
});
export type SessionRow = typeof sessions.$inferSelect;

/** Hashed single-use recovery codes for two-step verification. */
export const recoveryCodes = auth.table('two_step_recovery_codes', {
  userId: uuid('user_id').notNull(),
  codeHash: text('code_hash').notNull(),
  usedAt: ts('used_at'),
});

/** Raw bytes; PGlite answers a Uint8Array where pg answers a Buffer, so both become a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * A person's picture (at most AVATAR_MAX_BYTES, already recognised as an image). Kept beside the
 * user, not in object storage: it is small, and it goes when the user (or their company) goes.
 */
export const avatars = auth.table('avatars', {
  userId: uuid('user_id').primaryKey(),
  content: bytea('content').notNull(),
  contentType: text('content_type').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
export type AvatarRow = typeof avatars.$inferSelect;

/** A company's own identity provider (migration 0008_sso); the client secret is sealed. */
export const ssoProviders = auth.table('sso_providers', {
  companyId: uuid('company_id').primaryKey(),
  issuer: text('issuer').notNull(),
  clientId: text('client_id').notNull(),
  clientSecretSealed: text('client_secret_sealed').notNull(),
  required: boolean('required').notNull().default(false),
  defaultRole: text('default_role').notNull(),
  roleClaim: text('role_claim'),
  roleMap: jsonb('role_map').notNull().$type<Record<string, string>>(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
export type SsoProviderRow = typeof ssoProviders.$inferSelect;

/** E-mail domains, each owned by one company's provider (unique across companies). */
export const ssoDomains = auth.table('sso_domains', {
  domain: text('domain').primaryKey(),
  companyId: uuid('company_id').notNull(),
});

/** A provider's subject linked to a user of the company that configured the provider. */
export const ssoIdentities = auth.table(
  'sso_identities',
  {
    companyId: uuid('company_id').notNull(),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: uuid('user_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastSignInAt: ts('last_sign_in_at'),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.issuer, t.subject] })],
);
export type SsoIdentityRow = typeof ssoIdentities.$inferSelect;
