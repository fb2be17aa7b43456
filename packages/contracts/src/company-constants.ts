// Constants of company administration: switchable features, the company data-removal protocol
// and branding images (zod-free). A module of its own so the bundler can leave them out of the
// signed-in shell.

/**
 * The product areas that can be switched off: platform-wide (a kill switch, for every company) or
 * per company. A company without a choice of its own has `defaultEnabled`.
 */
export const FEATURES = [
  {
    key: 'transcription',
    name: 'Transcription',
    description: 'Upload recordings and get transcripts with speakers and word timings.',
    defaultEnabled: true,
  },
  {
    key: 'chat',
    name: 'Main chat',
    description: 'Chat with the AI assistant about the company’s transcripts.',
    defaultEnabled: true,
  },
  {
    key: 'analysis',
    name: 'Analysis',
    description: 'Run prompts and analysis patterns on transcripts.',
    defaultEnabled: true,
  },
  {
    key: 'custom_gpts',
    name: 'Custom GPTs',
    description: 'Company assistants with their own instructions and files.',
    defaultEnabled: true,
  },
  {
    key: 'clients',
    name: 'Clients',
    description: 'Keep a client list and link transcripts to clients.',
    defaultEnabled: true,
  },
  { key: 'forest_ai', name: 'Forest AI', description: 'AI feature area (coming soon).', defaultEnabled: true },
  { key: 'data_bridge', name: 'AI Data Bridge', description: 'AI feature area (coming soon).', defaultEnabled: true },
  { key: 'helpdesk_ai', name: 'Helpdesk AI', description: 'AI feature area (coming soon).', defaultEnabled: true },
  {
    key: 'financial_analyst',
    name: 'AI Financial Analyst',
    description: 'AI feature area (coming soon).',
    defaultEnabled: true,
  },
  { key: 'law_module', name: 'AI Law Module', description: 'AI feature area (coming soon).', defaultEnabled: true },
] as const;
export type FeatureKey = (typeof FEATURES)[number]['key'];
export const FEATURE_KEYS = FEATURES.map((f) => f.key) as [FeatureKey, ...FeatureKey[]];

/**
 * The API routes of each switchable feature (route patterns under these prefixes). A request of a
 * company member to a feature that is off answers 403 FEATURE_DISABLED in every service (the kit
 * checks it). The AI feature areas have no API yet: they are hidden in the menu only.
 */
export const FEATURE_ROUTES: Readonly<Partial<Record<FeatureKey, readonly string[]>>> = {
  transcription: ['/api/transcripts', '/api/search', '/api/files', '/api/uploads'],
  chat: ['/api/chat'],
  custom_gpts: ['/api/custom-gpt'],
  analysis: ['/api/analysis'],
  clients: ['/api/clients'],
};

export const FEATURE_DISABLED_MESSAGE = 'This feature is not enabled for your company';

/**
 * The services that hold a company's data. After `company.deleted` each removes that company's
 * data and reports `company.data_removed`; the tenant service removes the company row once all of
 * them have. (The audit service keeps its log: it is not on this list.)
 */
export const COMPANY_DATA_SERVICES = [
  'auth',
  'tenant',
  'file',
  'transcription',
  'chat',
  'prompt',
  'messaging',
  'tasks',
  'webhooks',
  'billing',
] as const;
export type CompanyDataService = (typeof COMPANY_DATA_SERVICES)[number];

/** The company images an administrator uploads (`POST /api/companies/upload?kind=`). */
export const BRANDING_KINDS = ['logo', 'favIcon', 'mainPageLogo'] as const;
export type BrandingKind = (typeof BRANDING_KINDS)[number];
/** The largest branding image accepted (a larger one is a 413). */
export const BRANDING_MAX_BYTES = 2 * 1024 * 1024;
/** Where uploaded branding images are served from, publicly (the sign-in page shows them). */
export const BRANDING_URL_PREFIX = '/api/companies/assets/';
