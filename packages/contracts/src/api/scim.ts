import { z } from 'zod';
import { Name } from '../common';
import { SCIM_MAX_PAGE } from '../scim-constants';

/** The SCIM token API: a company's identity provider provisions its people with one (RFC 7644). */
export const ScimTokenBody = z.object({ name: Name(100) }).strict();
export type ScimTokenBody = z.infer<typeof ScimTokenBody>;

export const ScimTokenParams = z.object({ id: z.string().uuid(), tokenId: z.string().uuid() }).strict();

export const ScimTokenDto = z.object({
  _id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  /** Who created it (a user id), null when that person has since been removed. */
  createdBy: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});
export type ScimTokenDto = z.infer<typeof ScimTokenDto>;

/** The answer to a creation: the only time the token itself is ever shown. */
export const ScimTokenCreatedDto = z.object({ id: z.string(), name: z.string(), token: z.string() });
export type ScimTokenCreatedDto = z.infer<typeof ScimTokenCreatedDto>;

export const SCIM_ERROR_TYPES = [
  'invalidFilter',
  'tooMany',
  'uniqueness',
  'mutability',
  'invalidSyntax',
  'invalidPath',
  'noTarget',
  'invalidValue',
  'invalidVers',
  'sensitive',
] as const;
export type ScimErrorType = (typeof SCIM_ERROR_TYPES)[number];

export const ScimErrorBody = z.object({
  schemas: z.array(z.string()),
  status: z.string(),
  scimType: z.enum(SCIM_ERROR_TYPES).optional(),
  detail: z.string(),
});
export type ScimErrorBody = z.infer<typeof ScimErrorBody>;

/** SCIM's booleans; Entra ID has sent them as the strings "True" and "False". */
export const ScimBoolean = z.union([
  z.boolean(),
  z
    .string()
    .regex(/^(true|false)$/i, 'must be true or false')
    .transform((value) => value.toLowerCase() === 'true'),
]);

const ScimText = (max: number) => z.string().trim().max(max);

export const ScimName = z
  .object({
    givenName: ScimText(100).optional(),
    familyName: ScimText(100).optional(),
    formatted: ScimText(201).optional(),
  })
  .passthrough();

/**
 * A User as identity providers send it (POST and PUT). Attributes Earshot does not keep (locale,
 * title, the enterprise extension, a password) are accepted and ignored, as RFC 7644 allows.
 */
export const ScimUserBody = z
  .object({
    schemas: z.array(z.string().max(200)).max(10).optional(),
    userName: ScimText(254).min(1),
    externalId: ScimText(255).min(1).optional(),
    name: ScimName.optional(),
    displayName: ScimText(201).optional(),
    emails: z
      .array(
        z
          .object({ value: ScimText(254), primary: ScimBoolean.optional(), type: z.string().max(50).optional() })
          .passthrough(),
      )
      .max(20)
      .optional(),
    active: ScimBoolean.optional(),
  })
  .passthrough();
export type ScimUserBody = z.infer<typeof ScimUserBody>;

export const ScimPatchBody = z
  .object({
    schemas: z.array(z.string().max(200)).max(10),
    Operations: z
      .array(
        z
          .object({
            // Entra ID writes the operation capitalised ("Replace").
            op: z
              .string()
              .regex(/^(add|replace|remove)$/i, 'must be add, replace or remove')
              .transform((op) => op.toLowerCase() as 'add' | 'replace' | 'remove'),
            path: z.string().trim().max(500).optional(),
            value: z.unknown().optional(),
          })
          .passthrough(),
      )
      .min(1)
      .max(1000),
  })
  .passthrough();
export type ScimPatchBody = z.infer<typeof ScimPatchBody>;

export const ScimGroupBody = z
  .object({
    schemas: z.array(z.string().max(200)).max(10).optional(),
    displayName: ScimText(100).min(1),
    members: z
      .array(z.object({ value: z.string().max(64) }).passthrough())
      .max(100_000)
      .optional(),
  })
  .passthrough();
export type ScimGroupBody = z.infer<typeof ScimGroupBody>;

/** List paging and filtering (RFC 7644 §3.4.2): startIndex is 1-based; count 0 answers totals only. */
export const ScimListQuery = z.object({
  filter: z.string().max(1000).optional(),
  startIndex: z.coerce
    .number()
    .int()
    .default(1)
    .transform((n) => Math.max(1, n)),
  count: z.coerce
    .number()
    .int()
    .min(0)
    .default(100)
    .transform((n) => Math.min(n, SCIM_MAX_PAGE)),
  attributes: z.string().max(1000).optional(),
  excludedAttributes: z.string().max(1000).optional(),
});
export type ScimListQuery = z.infer<typeof ScimListQuery>;
export const ScimResourceQuery = ScimListQuery.pick({ attributes: true, excludedAttributes: true });
export const ScimIdParams = z.object({ id: z.string().max(64) }).strict();

/** Any SCIM resource as answered (their shapes are RFC 7643's; the service builds them). */
export const ScimResource = z.record(z.string(), z.unknown());
