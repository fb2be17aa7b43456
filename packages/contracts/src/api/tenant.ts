import { z } from 'zod';
import { Id, Name, PageQuery, paginated } from '../common';
import { RedactedCount } from './redacted';
import {
  BRANDING_KINDS,
  BRANDING_URL_PREFIX,
  COMPANY_DATA_SERVICES,
  FEATURE_KEYS,
  type FeatureKey,
} from '../constants';
import { ClientState } from '../events/tenant';
import { ActiveHoldDto } from './holds';

export const COMPANY_TYPES = ['enterprise', 'business', 'b2c', 'partner'] as const;
export const COMPANY_STATUSES = ['active', 'inactive', 'suspended'] as const;
export const LANGUAGES = ['en', 'fr', 'et', 'lv'] as const;

/** Sub-domains a company may not take: they name the platform itself or common infrastructure. */
export const RESERVED_DOMAINS = [
  'www',
  'api',
  'admin',
  'app',
  'auth',
  'login',
  'signin',
  'signup',
  'localhost',
  'mail',
  'smtp',
  'ftp',
  'static',
  'assets',
  'cdn',
  'uploads',
  'docs',
  'status',
  'support',
  'help',
  'host',
  'root',
  'system',
  'earshot',
  'console',
  'dashboard',
  'minio',
  'kafka',
  'gateway',
  'test',
  'dev',
  'staging',
] as const;

const HEX_COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
export const HexColour = z.string().trim().regex(HEX_COLOUR, 'must be a hex colour like #3b82f6');

export const ThemeColours = z.object({
  primary: z.string(),
  primaryLight: z.string(),
  primaryDark: z.string(),
  secondary: z.string(),
  accent: z.string(),
});

/** What an administrator may send as a theme: any subset of the five colours, each a hex colour. */
export const ThemeInput = z
  .object({
    primary: HexColour,
    primaryLight: HexColour,
    primaryDark: HexColour,
    secondary: HexColour,
    accent: HexColour,
  })
  .partial()
  .strict();

/**
 * A branding image: an https URL, a path under /uploads/ (served by the file service), or an inline
 * raster image (PNG, JPEG, GIF, WebP, ICO) as base64. SVG data URLs are refused: they can carry
 * script. javascript:, http: and anything else are refused.
 */
const INLINE_IMAGE = /^data:image\/(?:png|jpeg|gif|webp|x-icon|vnd\.microsoft\.icon);base64,[A-Za-z0-9+/]+={0,2}$/;
const UPLOAD_PATH = /^\/uploads\/(?!.*\.\.)(?!.*\/\/)[A-Za-z0-9._\-/]+$/;
/** An image uploaded through POST /api/companies/upload (the server names it). */
export const BRANDING_ASSET_NAME =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(?:png|jpg|webp|ico)$/;
export const ImageRef = z
  .string()
  .trim()
  .max(512 * 1024)
  .refine((value) => {
    if (UPLOAD_PATH.test(value)) return value.length <= 1024;
    if (value.startsWith(BRANDING_URL_PREFIX)) return BRANDING_ASSET_NAME.test(value.slice(BRANDING_URL_PREFIX.length));
    if (value.startsWith('data:')) return INLINE_IMAGE.test(value);
    if (value.length > 2048) return false;
    try {
      const url = new URL(value);
      return url.protocol === 'https:' && url.username === '' && url.password === '';
    } catch {
      return false;
    }
  }, `must be an https:// URL, an /uploads/ or ${BRANDING_URL_PREFIX} path or a base64 PNG/JPEG/GIF/WebP/ICO data URL`);

export const CompanyCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9](?:[A-Z0-9-]{0,30}[A-Z0-9])?$/, 'must be 1-32 letters, digits or dashes (not at either end)');

export const CompanyDomain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/,
    'must be a DNS label: 1-63 lower-case letters, digits or dashes (not at either end)',
  )
  .refine((d) => !(RESERVED_DOMAINS as readonly string[]).includes(d), 'is reserved');

const MAX_STORAGE_BYTES = Number.MAX_SAFE_INTEGER;

/** The editable fields of a company, each optional (PUT is a partial update). */
const companyFields = {
  name: Name(120),
  code: CompanyCode,
  domain: CompanyDomain,
  type: z.enum(COMPANY_TYPES),
  status: z.enum(COMPANY_STATUSES),
  /** null = unlimited. */
  maxUsers: z.number().int().min(1).max(1_000_000).nullable(),
  /** Bytes; null = unlimited. */
  maxStorage: z.number().int().min(0).max(MAX_STORAGE_BYTES).nullable(),
  language: z.enum(LANGUAGES),
  encryption: z.boolean(),
  partnerCompanyId: Id.nullable(),
  favIcon: ImageRef.nullable(),
  logo: ImageRef.nullable(),
  mainPageLogo: ImageRef.nullable(),
  settings: z.object({ theme: ThemeInput }).strict(),
};

export const CompanyCreateBody = z
  .object({
    ...companyFields,
    type: companyFields.type.default('business'),
    status: companyFields.status.default('active'),
    maxUsers: companyFields.maxUsers.default(null),
    maxStorage: companyFields.maxStorage.default(null),
    language: companyFields.language.default('en'),
    encryption: companyFields.encryption.default(false),
    partnerCompanyId: companyFields.partnerCompanyId.default(null),
    favIcon: companyFields.favIcon.default(null),
    logo: companyFields.logo.default(null),
    mainPageLogo: companyFields.mainPageLogo.default(null),
    settings: companyFields.settings.default({ theme: {} }),
  })
  .strict();
export type CompanyCreateBody = z.infer<typeof CompanyCreateBody>;

export const CompanyUpdateBody = z
  .object(companyFields)
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'send at least one field to change');
export type CompanyUpdateBody = z.infer<typeof CompanyUpdateBody>;

/** A company being deleted shows this status until every service has removed its data. */
export const COMPANY_LIST_STATUSES = [...COMPANY_STATUSES, 'deleting'] as const;

export const CompanyListQuery = PageQuery.extend({
  q: z.string().trim().max(120).optional(),
  status: z.enum(COMPANY_LIST_STATUSES).optional(),
  type: z.enum(COMPANY_TYPES).optional(),
}).strict();
export type CompanyListQuery = z.infer<typeof CompanyListQuery>;

/** A company as the API shows it. The API key is masked to its last four characters. */
export const CompanyDto = z.object({
  _id: z.string(),
  name: z.string(),
  code: z.string(),
  domain: z.string(),
  type: z.enum(COMPANY_TYPES),
  /** `deleting` from DELETE until every service has removed the company's data (see pendingServices). */
  status: z.enum(COMPANY_LIST_STATUSES),
  maxUsers: z.number().int().nullable(),
  maxStorage: z.number().int().nullable(),
  /** Users of the company (as the tenant service knows them from the auth service's events). */
  userCount: z.number().int(),
  /** Bytes of stored recordings (from the file service's events). */
  storageUsed: z.number().int(),
  /** While deleting: the services that have not yet reported the company's data removed. */
  pendingServices: z.array(z.enum(COMPANY_DATA_SERVICES)),
  language: z.enum(LANGUAGES),
  encryption: z.boolean(),
  /** Masked, e.g. "****a1B2"; null when the company has no key. */
  apiKey: z.string().nullable(),
  partnerCompanyId: z.string().nullable(),
  favIcon: z.string().nullable(),
  logo: z.string().nullable(),
  mainPageLogo: z.string().nullable(),
  settings: z.object({ theme: ThemeColours.partial() }),
  /** Credits the company can still spend (open reservations taken off; see GET /companies/{id}/credits). */
  balance: z.number(),
  /** The legal hold on the whole company when one is in force (see PUT /companies/{id}/hold). */
  hold: ActiveHoldDto.nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CompanyDto = z.infer<typeof CompanyDto>;

/** The answer to creating a company: the only time its first API key is shown in full. */
export const CompanyWithKeyDto = CompanyDto.extend({ apiKey: z.string() });
export type CompanyWithKeyDto = z.infer<typeof CompanyWithKeyDto>;

/**
 * POST /companies/{id}/api-key (201): the company's new API key, shown this once (afterwards only
 * `****` and its last four characters, in the company's `apiKey`). Integrations send it in the
 * `X-API-Key` header.
 */
export const ApiKeyAnswer = z.object({ apiKey: z.string() });
export type ApiKeyAnswer = z.infer<typeof ApiKeyAnswer>;

export const CompanyPage = paginated(CompanyDto);
export type CompanyPage = z.infer<typeof CompanyPage>;

/** Public branding config: what the console shows before anyone signs in. */
export const CompanyConfigDto = z.object({
  name: z.string(),
  favIcon: z.string().nullable(),
  logo: z.string().nullable(),
  mainPageLogo: z.string().nullable(),
  settings: z.object({ theme: ThemeColours.partial() }),
});
export type CompanyConfigDto = z.infer<typeof CompanyConfigDto>;

/** The platform administrator's view of a company's config: branding plus how it is reached. */
export const CompanyAdminConfigDto = CompanyConfigDto.extend({
  _id: z.string(),
  domain: z.string(),
  language: z.enum(LANGUAGES),
  status: z.enum(COMPANY_LIST_STATUSES),
  features: z.record(z.string(), z.boolean()),
});
export type CompanyAdminConfigDto = z.infer<typeof CompanyAdminConfigDto>;

/** `POST /api/companies/upload?companyId=…&kind=…` (multipart field `file`). */
export const BrandingUploadQuery = z.object({ companyId: Id, kind: z.enum(BRANDING_KINDS) }).strict();
export type BrandingUploadQuery = z.infer<typeof BrandingUploadQuery>;
/** Where the uploaded image is served (also set on the company's branding field). */
export const BrandingUploadDto = z.object({ url: z.string() });
export type BrandingUploadDto = z.infer<typeof BrandingUploadDto>;
export const BrandingAssetParams = z
  .object({ name: z.string().max(64).regex(BRANDING_ASSET_NAME, 'is not an uploaded image name') })
  .strict();

export const SubdomainParams = z.object({ subdomain: z.string().trim().toLowerCase().min(1).max(253) }).strict();

/** A catalogue entry; `enabled` is the platform-wide switch (false = killed for every company). */
export const FeatureDto = z.object({
  key: z.string(),
  name: z.string(),
  description: z.string(),
  defaultEnabled: z.boolean(),
  enabled: z.boolean(),
});
export type FeatureDto = z.infer<typeof FeatureDto>;
/** A feature of one company: `enabled` is the company's own switch (still off when killed platform-wide). */
export const CompanyFeatureDto = FeatureDto.omit({ enabled: true }).extend({ enabled: z.boolean() });
export type CompanyFeatureDto = z.infer<typeof CompanyFeatureDto>;

export const CompanyFeaturesBody = z
  .object({
    features: z
      .object(Object.fromEntries(FEATURE_KEYS.map((k) => [k, z.boolean()])) as Record<FeatureKey, z.ZodBoolean>)
      .partial()
      .strict(),
  })
  .strict();
export type CompanyFeaturesBody = z.infer<typeof CompanyFeaturesBody>;

export const FeatureKeyParams = z.object({ key: z.enum(FEATURE_KEYS) }).strict();
/** `PUT /api/features/:key`: the platform-wide switch (false = off for every company). */
export const PlatformFeatureBody = z.object({ enabled: z.boolean() }).strict();
export type PlatformFeatureBody = z.infer<typeof PlatformFeatureBody>;
/** `GET /api/features/enabled`: what is on for the caller's company (platform switch and company switch). */
export const EnabledFeaturesDto = z.object({ features: z.record(z.string(), z.boolean()) });
export type EnabledFeaturesDto = z.infer<typeof EnabledFeaturesDto>;

/*
 * Clients: the people and organisations a company's recordings are about (/clients).
 * Text that reaches PostgreSQL must not hold NUL, which it refuses outright; one-line fields refuse
 * every control character, notes keep tabs and line breaks.
 */
// eslint-disable-next-line no-control-regex
const ONE_LINE = /^[^\u0000-\u001f\u007f]*$/;
// eslint-disable-next-line no-control-regex
const MULTI_LINE = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;
const Line = (max: number) => z.string().trim().min(1).max(max).regex(ONE_LINE, 'must not contain control characters');

export const CLIENT_NOTES_MAX = 4000;

const clientFields = {
  name: Line(120),
  organisation: Line(200).nullable(),
  email: z.string().trim().toLowerCase().max(254).email().nullable(),
  phone: z
    .string()
    .trim()
    .regex(/^\+?[0-9][0-9 ().-]{2,31}$/, 'must be a phone number: digits, spaces, ( ) . - and an optional leading +')
    .nullable(),
  /** The client's id in the company's CRM: unique within the company. */
  externalId: Line(128).nullable(),
  notes: z
    .string()
    .trim()
    .max(CLIENT_NOTES_MAX)
    .regex(MULTI_LINE, 'must not contain control characters other than tabs and line breaks')
    .nullable(),
  /** A user of the same company who looks after this client. */
  ownerId: Id.nullable(),
};

export const ClientCreateBody = z.object(clientFields).partial().required({ name: true }).strict();
export type ClientCreateBody = z.infer<typeof ClientCreateBody>;

export const ClientUpdateBody = z
  .object(clientFields)
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'send at least one field to change');
export type ClientUpdateBody = z.infer<typeof ClientUpdateBody>;

export const ClientListQuery = PageQuery.extend({
  /** Part of the name, organisation, e-mail, phone or external id. */
  search: z.string().trim().max(120).regex(ONE_LINE, 'must not contain control characters').optional(),
  /** HOST_ADMIN only: one company's clients (others always see their own company's). */
  companyId: Id.optional(),
}).strict();
export type ClientListQuery = z.infer<typeof ClientListQuery>;

export const ClientDropdownQuery = z.object({ companyId: Id.optional() }).strict();
export type ClientDropdownQuery = z.infer<typeof ClientDropdownQuery>;

/** A client as the API shows it: what events carry (ClientState) plus its id, company and times. */
export const ClientDto = z.object({
  _id: z.string(),
  companyId: z.string(),
  ...ClientState.shape,
  /** The legal hold on the client when one is in force (see PUT /clients/{id}/hold). */
  hold: ActiveHoldDto.nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ClientDto = z.infer<typeof ClientDto>;

/** POST /clients and PUT /clients/{id}: the client as stored, and how many spans redaction hid in its fields. */
export const ClientSaved = ClientDto.extend(RedactedCount.shape);
export type ClientSaved = z.infer<typeof ClientSaved>;

/** A recording linked to a client, as the tenant service knows it from file and transcript events. */
export const ClientRecordingDto = z.object({
  fileId: z.string(),
  name: z.string().nullable(),
  /** The transcription status (pending, processing, completed, failed). */
  status: z.string(),
  /** Seconds, once transcribed. */
  duration: z.number().nullable(),
  uploadedAt: z.string().nullable(),
});
export type ClientRecordingDto = z.infer<typeof ClientRecordingDto>;

export const ClientDetailDto = ClientDto.extend({ recordings: z.array(ClientRecordingDto) });
export type ClientDetailDto = z.infer<typeof ClientDetailDto>;

export const ClientPage = paginated(ClientDto);
export type ClientPage = z.infer<typeof ClientPage>;
