import { z } from 'zod';
import { Id, Name, PageQuery, paginated } from '../common';
import { ClientState } from '../events/tenant';

export const COMPANY_TYPES = ['enterprise', 'business', 'b2c', 'partner'] as const;
export const COMPANY_STATUSES = ['active', 'inactive', 'suspended'] as const;
export const LANGUAGES = ['en', 'fr', 'et', 'lv'] as const;

/** Sub-domains a company may not take: they name the platform itself or common infrastructure. */
export const RESERVED_DOMAINS = [
  'www', 'api', 'admin', 'app', 'auth', 'login', 'signin', 'signup', 'localhost', 'mail', 'smtp', 'ftp',
  'static', 'assets', 'cdn', 'uploads', 'docs', 'status', 'support', 'help', 'host', 'root', 'system',
  'earshot', 'console', 'dashboard', 'minio', 'kafka', 'gateway', 'test', 'dev', 'staging',
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
  .object({ primary: HexColour, primaryLight: HexColour, primaryDark: HexColour, secondary: HexColour, accent: HexColour })
  .partial()
  .strict();

/**
 * A branding image: an https URL, a path under /uploads/ (served by the file service), or an inline
 * raster image (PNG, JPEG, GIF, WebP, ICO) as base64. SVG data URLs are refused: they can carry
 * script. javascript:, http: and anything else are refused.
 */
const INLINE_IMAGE = /^data:image\/(?:png|jpeg|gif|webp|x-icon|vnd\.microsoft\.icon);base64,[A-Za-z0-9+/]+={0,2}$/;
const UPLOAD_PATH = /^\/uploads\/(?!.*\.\.)(?!.*\/\/)[A-Za-z0-9._\-/]+$/;
export const ImageRef = z
  .string()
  .trim()
  .max(512 * 1024)
  .refine((value) => {
    if (UPLOAD_PATH.test(value)) return value.length <= 1024;
    if (value.startsWith('data:')) return INLINE_IMAGE.test(value);
    if (value.length > 2048) return false;
    try {
      const url = new URL(value);
      return url.protocol === 'https:' && url.username === '' && url.password === '';
    } catch {
      return false;
    }
  }, 'must be an https:// URL, an /uploads/ path or a base64 PNG/JPEG/GIF/WebP/ICO data URL');

export const CompanyCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9](?:[A-Z0-9-]{0,30}[A-Z0-9])?$/, 'must be 1-32 letters, digits or dashes (not at either end)');

export const CompanyDomain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'must be a DNS label: 1-63 lower-case letters, digits or dashes (not at either end)')
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

export const CompanyListQuery = PageQuery.extend({
  q: z.string().trim().max(120).optional(),
  status: z.enum(COMPANY_STATUSES).optional(),
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
  status: z.enum(COMPANY_STATUSES),
  maxUsers: z.number().int().nullable(),
  maxStorage: z.number().int().nullable(),
  language: z.enum(LANGUAGES),
  encryption: z.boolean(),
  /** Masked, e.g. "****a1B2"; null when the company has no key. */
  apiKey: z.string().nullable(),
  partnerCompanyId: z.string().nullable(),
  favIcon: z.string().nullable(),
  logo: z.string().nullable(),
  mainPageLogo: z.string().nullable(),
  settings: z.object({ theme: ThemeColours.partial() }),
  credits: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CompanyDto = z.infer<typeof CompanyDto>;

/** The answer to creating a company or rotating its key: the only time the full key is shown. */
export const CompanyWithKeyDto = CompanyDto.extend({ apiKey: z.string() });
export type CompanyWithKeyDto = z.infer<typeof CompanyWithKeyDto>;

export const CompanyPage = paginated(CompanyDto);
export type CompanyPage = z.infer<typeof CompanyPage>;
export const CreditsDto = z.object({ credits: z.number() });
export type CreditsDto = z.infer<typeof CreditsDto>;

/** Public branding config (spec part 3: company config). */
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
  status: z.enum(COMPANY_STATUSES),
  features: z.record(z.string(), z.boolean()),
});
export type CompanyAdminConfigDto = z.infer<typeof CompanyAdminConfigDto>;

export const SubdomainParams = z.object({ subdomain: z.string().trim().toLowerCase().min(1).max(253) }).strict();

/** The features catalogue: product areas that can be switched on or off per company. */
export const FEATURES = [
  { key: 'transcription', name: 'Transcription', description: 'Upload recordings and get transcripts with speakers and word timings.', defaultEnabled: true },
  { key: 'chat', name: 'Main chat', description: 'Chat with the AI assistant about the company’s transcripts.', defaultEnabled: true },
  { key: 'analysis', name: 'Analysis', description: 'Run prompts and analysis patterns on transcripts.', defaultEnabled: true },
  { key: 'custom_gpts', name: 'Custom GPTs', description: 'Company assistants with their own instructions and files.', defaultEnabled: false },
  { key: 'clients', name: 'Clients', description: 'Keep a client list and link transcripts to clients.', defaultEnabled: true },
  { key: 'forest_ai', name: 'Forest AI', description: 'AI feature area (coming soon).', defaultEnabled: false },
  { key: 'data_bridge', name: 'AI Data Bridge', description: 'AI feature area (coming soon).', defaultEnabled: false },
  { key: 'helpdesk_ai', name: 'Helpdesk AI', description: 'AI feature area (coming soon).', defaultEnabled: false },
  { key: 'financial_analyst', name: 'AI Financial Analyst', description: 'AI feature area (coming soon).', defaultEnabled: false },
  { key: 'law_module', name: 'AI Law Module', description: 'AI feature area (coming soon).', defaultEnabled: false },
] as const;
export type FeatureKey = (typeof FEATURES)[number]['key'];
export const FEATURE_KEYS = FEATURES.map((f) => f.key) as [FeatureKey, ...FeatureKey[]];

export const FeatureDto = z.object({ key: z.string(), name: z.string(), description: z.string(), defaultEnabled: z.boolean() });
export type FeatureDto = z.infer<typeof FeatureDto>;
export const CompanyFeatureDto = FeatureDto.extend({ enabled: z.boolean() });
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

/*
 * Clients: the people and organisations a company's recordings are about (spec part 2: /clients).
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
  phone: z.string().trim().regex(/^\+?[0-9][0-9 ().-]{2,31}$/, 'must be a phone number: digits, spaces, ( ) . - and an optional leading +').nullable(),
  /** The client's id in the company's CRM: unique within the company. */
  externalId: Line(128).nullable(),
  notes: z.string().trim().max(CLIENT_NOTES_MAX).regex(MULTI_LINE, 'must not contain control characters other than tabs and line breaks').nullable(),
  /** A user of the same company who looks after this client. */
  ownerId: Id.nullable(),
};

export const ClientCreateBody = z
  .object(clientFields)
  .partial()
  .required({ name: true })
  .strict();
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
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ClientDto = z.infer<typeof ClientDto>;

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
