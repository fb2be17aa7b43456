import { z } from 'zod';
import { Email } from '../common';
import { Domain } from './auth';
import { SSO_DEFAULT_ROLES, SSO_MAX_DOMAINS, SSO_MAX_ROLE_MAP, SSO_ROLES } from '../constants';

// eslint-disable-next-line no-control-regex
const ONE_LINE = /^[^\u0000-\u001f\u007f]*$/;
const oneLine = (max: number) => z.string().trim().min(1).max(max).regex(ONE_LINE, 'must be one line of text');

/** An e-mail domain a company owns (acme.com): a host name of at least two labels. */
export const EmailDomain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(
    /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    'must be an e-mail domain such as example.com',
  );

/** The issuer URL (http or https; which of them is allowed is the server's decision). */
export const IssuerUrl = z
  .string()
  .trim()
  .max(500)
  .url('must be the provider’s issuer URL, e.g. https://login.example.com/realms/acme')
  .refine((value) => /^https?:\/\//i.test(value), 'must be an http(s) URL')
  .refine((value) => {
    const url = new URL(value);
    return !url.username && !url.password && !url.search && !url.hash;
  }, 'must not carry credentials, a query or a fragment');

/** A claim name as providers write them (groups, roles, realm_access.roles is not nested here). */
export const ClaimName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_:./-]+$/, 'must be a claim name (letters, digits, _ : . / -)');

export const SsoSettingsBody = z
  .object({
    issuer: IssuerUrl,
    clientId: oneLine(255),
    /** Left out on a later save: the stored secret stays. Required the first time. */
    clientSecret: oneLine(1000).optional(),
    domains: z
      .array(EmailDomain)
      .min(1)
      .max(SSO_MAX_DOMAINS)
      .refine((list) => new Set(list).size === list.length, 'must not repeat a domain'),
    required: z.boolean(),
    defaultRole: z.enum(SSO_DEFAULT_ROLES),
    roleClaim: ClaimName.optional(),
    roleMap: z
      .record(oneLine(200), z.enum(SSO_ROLES))
      .refine((map) => Object.keys(map).length <= SSO_MAX_ROLE_MAP, `must have at most ${SSO_MAX_ROLE_MAP} entries`)
      .optional(),
  })
  .strict();
export type SsoSettingsBody = z.infer<typeof SsoSettingsBody>;

/** A company's provider as answers and events carry it: the client secret is never in it. */
export const SsoProviderState = z.object({
  companyId: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  domains: z.array(z.string()),
  required: z.boolean(),
  defaultRole: z.enum(SSO_DEFAULT_ROLES),
  roleClaim: z.string().nullable(),
  roleMap: z.record(z.string(), z.enum(SSO_ROLES)),
});

/** A company's provider as the API answers it. */
export const SsoSettingsDto = SsoProviderState.extend({
  /** The address to register at the provider as the redirect (callback) URI. */
  redirectUri: z.string(),
  /** Where "Test sign-in" starts. */
  startUrl: z.string(),
  updatedAt: z.string(),
});
export type SsoSettingsDto = z.infer<typeof SsoSettingsDto>;

/** GET answers the settings, or null when the company has no provider. */
export const SsoSettingsAnswer = SsoSettingsDto.nullable();
export type SsoSettingsAnswer = z.infer<typeof SsoSettingsAnswer>;

/** By the e-mail typed on the sign-in page, or by the company's console domain (its own address `https://<domain>.<host>/`). */
export const SsoDiscoverQuery = z
  .object({ email: Email.optional(), company: Domain.optional() })
  .strict()
  .refine((q) => (q.email === undefined) !== (q.company === undefined), {
    message: 'give either email or company',
    path: ['email'],
  });
export type SsoDiscoverQuery = z.infer<typeof SsoDiscoverQuery>;

/** Whether an e-mail's domain signs in through a company's provider; nothing else leaks. */
export const SsoDiscoverResponse = z.object({
  sso: z.boolean(),
  companyName: z.string().optional(),
  required: z.boolean().optional(),
  startUrl: z.string().optional(),
});
export type SsoDiscoverResponse = z.infer<typeof SsoDiscoverResponse>;

/** A path of this console to come back to (relative, same origin): never another site. */
export const ReturnTo = z
  .string()
  .max(1000)
  .refine(
    (value) => /^\/(?![/\\])[^\s\\]*$/.test(value) && ONE_LINE.test(value),
    'must be a path of this console starting with a single /',
  );

export const SsoStartQuery = z
  .object({
    company: Domain,
    returnTo: ReturnTo.optional(),
    remember: z.enum(['true', 'false']).optional(),
  })
  .strict();
export type SsoStartQuery = z.infer<typeof SsoStartQuery>;

export const SsoCallbackQuery = z
  .object({
    code: z.string().max(4096).optional(),
    state: z.string().max(500).optional(),
    iss: z.string().max(500).optional(),
    error: z.string().max(200).optional(),
    error_description: z.string().max(2000).optional(),
    error_uri: z.string().max(2000).optional(),
    session_state: z.string().max(500).optional(),
    scope: z.string().max(2000).optional(),
  })
  .strict();
export type SsoCallbackQuery = z.infer<typeof SsoCallbackQuery>;

/** The people who signed in through the company's provider, most recent first (the console's list). */
export const SsoSignInDto = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.string(),
  subject: z.string(),
  linkedAt: z.string(),
  lastSignInAt: z.string().nullable(),
});
export type SsoSignInDto = z.infer<typeof SsoSignInDto>;
export const SsoSignInsResponse = z.array(SsoSignInDto);
export type SsoSignInsResponse = z.infer<typeof SsoSignInsResponse>;
