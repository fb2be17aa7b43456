import type { CallerRole, Role } from '@earshot/contracts';

/**
 * Who may call each API route, written from the specification (console-spec.md), never from a
 * route's own `config.access`: the matrix test compares every registered route with this table, so
 * a route declared for the wrong roles fails there instead of being trusted.
 *
 * The specification gives each role a list of areas, ties screens to areas and lists the calls
 * behind them. Sign-in, your own profile, password and two-step verification are what every
 * signed-in person needs (/profile is visible to all); sign-in itself, branding and probes need no
 * session.
 */

/** The specification's roles, area by area. 'public' needs no session at all. */
export const AREAS = {
  // No session: sign-in, refresh, logout, password reset, sign-in providers: nobody is signed in yet.
  signIn: 'public',
  // The console loads a company's branding before anyone signs in, so it needs no authentication.
  branding: 'public',
  // Health and readiness probes of the process.
  probes: 'public',
  // Your own account: profile, password, two-step verification, sessions.
  account: ['HOST_ADMIN', 'ADMIN', 'USER', 'CALLER'],
  companies: ['HOST_ADMIN'],
  features: ['HOST_ADMIN'],
  prompts: ['HOST_ADMIN'],
  pricing: ['HOST_ADMIN'],
  b2cUsers: ['HOST_ADMIN'],
  auditLogs: ['HOST_ADMIN'],
  emailTemplates: ['HOST_ADMIN'],
  aiConfig: ['HOST_ADMIN'],
  customGpts: ['HOST_ADMIN', 'ADMIN'],
  users: ['HOST_ADMIN', 'ADMIN'],
  clients: ['ADMIN', 'CALLER'],
  aiFeatures: ['ADMIN'],
  chat: ['HOST_ADMIN', 'ADMIN', 'USER', 'CALLER'],
  // Transcripts include the recordings they are made from: upload, list, play.
  transcripts: ['HOST_ADMIN', 'ADMIN', 'USER', 'CALLER'],
  // Everyone in the company sees the company's tasks (task list, kanban, calendar);
  // who may change one (assignee, creator, ADMIN) is decided per task, past the route.
  tasks: ['HOST_ADMIN', 'ADMIN', 'USER', 'CALLER'],
  // The dashboards. Analytics (and its scorecards and calls): every role, their own
  // company (HOST_ADMIN picks one); CRM: ADMIN and CALLER (those of /clients) and HOST_ADMIN;
  // the platform overview (/saas): HOST_ADMIN.
  analytics: ['HOST_ADMIN', 'ADMIN', 'USER', 'CALLER'],
  crm: ['HOST_ADMIN', 'ADMIN', 'CALLER'],
  saas: ['HOST_ADMIN'],
  // A company's outgoing webhooks (its endpoints, their secrets and delivery log): an integration
  // setting of the company, its ADMIN's (their own) and the platform administrator's (any company,
  // named by companyId), like users; never a USER's or CALLER's.
  webhooks: ['HOST_ADMIN', 'ADMIN'],
  // A company's sign-in and provisioning (its single sign-on, its SCIM tokens, who signed in and what its identity provider changed): its
  // ADMIN's (their own) and the platform administrator's (any company), never a USER's or CALLER's.
  identity: ['HOST_ADMIN', 'ADMIN'],
  // The SCIM API an identity provider calls: no session at all; the route itself demands one
  // company's SCIM token and answers 401 to anything else (a person's session included).
  provisioning: 'public',
} as const satisfies Record<string, 'public' | readonly Role[]>;

export type Area = keyof typeof AREAS;
export type Allowed = 'public' | readonly CallerRole[];

/** A route that deliberately departs from its area's roles, and why. */
export interface Exception {
  allowed: Allowed;
  reason: string;
}

export interface Permission {
  area: Area;
  exception?: Exception;
}

/**
 * A legal hold on a recording or a client stops every deletion of it; placing and lifting
 * one is a compliance decision, the company's ADMIN's for their own company and the platform
 * administrator's for any (neither a USER nor a CALLER, whose areas hold those objects).
 */
const LEGAL_HOLD: Exception = {
  allowed: ['HOST_ADMIN', 'ADMIN'],
  reason: 'legal hold is the company ADMIN’s (their own company’s objects) and the platform administrator’s',
};

/** An unredacted original, kept under policy keepOriginal, is read by the company's ADMIN alone. */
const ORIGINAL_READER: Exception = {
  allowed: ['ADMIN'],
  reason:
    'an unredacted original is readable only by the company’s ADMIN (encrypted, every read audited): not the platform administrator, not the uploader',
};

/**
 * The platform administrator looks at any company's clients (with a company filter) to
 * support it, but changing them stays the company's own ADMIN and CALLER.
 */
const CLIENTS_READ_BY_HOST: Exception = {
  allowed: ['HOST_ADMIN', 'ADMIN', 'CALLER'],
  reason:
    'the platform administrator reads any company’s clients (read-only, filtered by companyId) to support it; creating, changing and deleting stay with the company’s ADMIN and CALLER',
};

/**
 * A company's API key acts as that company's service account (SERVICE, never a person's
 * role): it uploads recordings and reads transcripts and their statuses, and nothing else.
 */
const SERVICE_TOO: Exception = {
  allowed: ['HOST_ADMIN', 'ADMIN', 'USER', 'CALLER', 'SERVICE'],
  reason:
    'integrations (a dialer, a CRM) upload recordings and read transcripts and their statuses with the company’s API key (X-API-Key); every other route refuses it',
};

/**
 * Renaming, merging or deleting a tag changes every recording of the company that carries
 * it, not one the caller is working on: the /tags page lets an ADMIN do it.
 */
const TAGS_ACROSS_COMPANY: Exception = {
  allowed: ['HOST_ADMIN', 'ADMIN'],
  reason:
    'renaming, merging and deleting a tag rewrites every recording of the company that has it, so it is the company ADMIN’s (their own company; another company’s tag is a 404) and the platform administrator’s (the company named by companyId); every member reads tags and tags a recording',
};

/**
 * A company's usage of credits (by day, person, model, feature; the CSV for chargeback)
 * and its monthly statement are read by the platform administrator for any company and by the
 * company's own ADMIN ("ADMIN for their own"); USER and CALLER see only their own, at /credits/me.
 */
const COMPANY_USAGE_READ: Exception = {
  allowed: ['HOST_ADMIN', 'ADMIN'],
  reason:
    'usage and monthly statements of a company are for the platform administrator (any company) and the company’s ADMIN (their own; another company is a 404); a USER sees only their own usage',
};

/**
 * A company's share of the transcription queue (its per-company cap, what runs and waits, each
 * waiting file's position) is an operations view for the company's ADMIN and the platform
 * administrator; members see their own files' statuses.
 */
const COMPANY_QUEUE_READ: Exception = {
  allowed: ['HOST_ADMIN', 'ADMIN'],
  reason:
    'the queue position and per-company cap are shown to the company’s ADMIN (their own company) and the platform administrator (the company named by companyId); USER and CALLER see their files’ statuses',
};

/** Every API route, by method and path as registered. */
export const ROUTES: Record<string, Permission> = {
  'GET /api/health': { area: 'probes' },
  'GET /api/ready': { area: 'probes' },

  'POST /api/auth/login': { area: 'signIn' },
  'GET /api/auth/jwks': { area: 'signIn' },
  'POST /api/auth/two-step/verify': { area: 'signIn' },
  'POST /api/auth/refresh': { area: 'signIn' },
  'POST /api/auth/logout': { area: 'signIn' },
  'POST /api/auth/password/forgot': { area: 'signIn' },
  'POST /api/auth/password/reset': { area: 'signIn' },
  // The last step of a sign-in with a one-time password (the pending cookie says whose).
  'POST /api/auth/password/change': { area: 'signIn' },
  'GET /api/auth/provider': { area: 'signIn' },
  'GET /api/auth/provider/:id/start': { area: 'signIn' },
  'GET /api/auth/provider/:id/callback': { area: 'signIn' },
  // Single sign-on through the company's own provider: nobody is signed in yet.
  'GET /api/auth/sso/discover': { area: 'signIn' },
  'GET /api/auth/sso/start': { area: 'signIn' },
  'GET /api/auth/sso/callback': { area: 'signIn' },
  'GET /api/companies/:id/sso': { area: 'identity' },
  'PUT /api/companies/:id/sso': { area: 'identity' },
  'DELETE /api/companies/:id/sso': { area: 'identity' },
  'GET /api/companies/:id/sso/sign-ins': { area: 'identity' },

  'GET /api/users/profile': { area: 'account' },
  'PUT /api/users/profile': { area: 'account' },
  // A person's data exported. Every signed-in person may ask for their own
  // account's; whose else they may ask for (an ADMIN their company's people, HOST_ADMIN
  // anyone's) is decided past the route, another company's person being a 404.
  'POST /api/privacy/export': { area: 'account' },
  'GET /api/privacy/jobs/:jobId': { area: 'account' },
  'GET /api/privacy/jobs/:jobId/download': { area: 'account' },
  // Erasing a person is managing people (an ADMIN their company's, HOST_ADMIN anyone's),
  // never one's own account; the matrix's example names no one, so nobody is erased by the walk.
  'POST /api/privacy/erase': { area: 'users' },
  // The company's line of those jobs (its cap, what runs and waits) is managing people too: its
  // ADMIN's (their own company), HOST_ADMIN's (the company named by companyId).
  'GET /api/privacy/queue': { area: 'users' },
  'PUT /api/users/password': { area: 'account' },
  'POST /api/users/two-step/setup': { area: 'account' },
  'POST /api/users/two-step/enable': { area: 'account' },
  'POST /api/users/two-step/disable': { area: 'account' },
  // One's own active sessions: listing them, signing one out, or every other one.
  'GET /api/users/sessions': { area: 'account' },
  'DELETE /api/users/sessions/:id': { area: 'account' },
  'POST /api/users/sessions/revoke-others': { area: 'account' },
  // One's own picture (uploaded or removed), and a colleague's beside their name.
  'POST /api/users/profile/avatar': { area: 'account' },
  'DELETE /api/users/profile/avatar': { area: 'account' },
  'GET /api/users/avatars/:id': { area: 'account' },
  // The support page, which shows the company's contact.
  'GET /api/users/support-contacts': { area: 'account' },
  'POST /api/users/client-errors': { area: 'account' },

  'GET /api/users': { area: 'users' },
  'GET /api/users/dropdown': { area: 'users' },
  'POST /api/users/register': { area: 'users' },
  'GET /api/users/:id': { area: 'users' },
  'PUT /api/users/:id': { area: 'users' },
  'DELETE /api/users/:id': { area: 'users' },
  // A person's monthly credits cap, set by their company's ADMIN (or the platform's).
  'PUT /api/users/:id/cap': { area: 'users' },
  'POST /api/users/:id/reset-password': { area: 'users' },
  'POST /api/users/:id/reset-two-step': { area: 'users' },
  'POST /api/users/:id/invitation': { area: 'users' },
  'DELETE /api/users/:id/invitation': { area: 'users' },
  'GET /api/users/b2c': { area: 'b2cUsers' },
  // The roles an administrator may give: part of managing users.
  'GET /api/roles': { area: 'users' },

  'GET /api/config/company/:subdomain': { area: 'branding' },
  // Uploaded logos: the sign-in page shows them before anyone signs in.
  'GET /api/companies/assets/:name': { area: 'branding' },
  'POST /api/companies/upload': { area: 'companies' },
  'GET /api/companies': { area: 'companies' },
  'GET /api/companies/dropdown': { area: 'companies' },
  'POST /api/companies': { area: 'companies' },
  'GET /api/companies/:id': { area: 'companies' },
  'PUT /api/companies/:id': { area: 'companies' },
  'DELETE /api/companies/:id': { area: 'companies' },
  'POST /api/companies/:id/api-key': { area: 'companies' },
  'DELETE /api/companies/:id/api-key': { area: 'companies' },
  'GET /api/companies/:id/config': { area: 'companies' },
  'GET /api/companies/:id/credits': {
    area: 'companies',
    exception: {
      allowed: ['HOST_ADMIN', 'ADMIN'],
      reason:
        'a company administrator reads their own company’s credit balance and ledger (read-only; another company is a 404)',
    },
  },
  // Grants, adjustments and the monthly budget and grant are the platform administrator's.
  'POST /api/companies/:id/credits': { area: 'companies' },
  'PUT /api/companies/:id/credits/settings': { area: 'companies' },
  // The platform administrator sets a company's redaction, encryption and retention.
  'PUT /api/companies/:id/policies': { area: 'companies' },
  // Holding a whole company (nothing of it deleted, the company included) is the platform administrator's.
  'PUT /api/companies/:id/hold': { area: 'companies' },
  'GET /api/companies/:id/policies': {
    area: 'companies',
    exception: {
      allowed: ['HOST_ADMIN', 'ADMIN'],
      reason:
        'a company administrator sees the policies their own company’s data is handled by (read-only; another company is a 404)',
    },
  },
  'GET /api/companies/:id/encryption': {
    area: 'companies',
    exception: {
      allowed: ['HOST_ADMIN', 'ADMIN'],
      reason:
        'a company administrator sees how far each service has encrypted their own company’s existing data, like its policies (read-only; another company is a 404)',
    },
  },

  // Prices (/pricing is HOST_ADMIN's), read by everyone signed in.
  'GET /api/pricing': {
    area: 'pricing',
    exception: {
      allowed: ['HOST_ADMIN', 'ADMIN', 'USER', 'CALLER'],
      reason:
        'the prices in force are read by every signed-in role (the AI configuration says which model has no price, the console what work costs); setting them stays HOST_ADMIN’s',
    },
  },
  'GET /api/pricing/history': { area: 'pricing' },
  'POST /api/pricing': { area: 'pricing' },
  'PUT /api/pricing/currency': { area: 'pricing' },

  // The header's bell, each person's own notifications (like their account).
  'GET /api/notifications': { area: 'account' },
  'POST /api/notifications/read-all': { area: 'account' },
  'POST /api/notifications/:id/read': { area: 'account' },
  // The inbox, each person's own notifications and mail (like their account).
  'GET /api/inbox': { area: 'account' },
  'GET /api/inbox/:id': { area: 'account' },
  'PUT /api/inbox/:id': { area: 'account' },
  'POST /api/inbox/read-all': { area: 'account' },

  // Tasks and the calendar, every person of the company (not the API key).
  'GET /api/tasks': { area: 'tasks' },
  'GET /api/tasks/members': { area: 'tasks' },
  'POST /api/tasks': { area: 'tasks' },
  'GET /api/tasks/:id': { area: 'tasks' },
  'PUT /api/tasks/:id': { area: 'tasks' },
  'DELETE /api/tasks/:id': { area: 'tasks' },
  'POST /api/tasks/from-run/:runId': { area: 'tasks' },
  'GET /api/calendar': { area: 'tasks' },
  'POST /api/calendar/feed': { area: 'tasks' },
  'GET /api/calendar/feed/:token': {
    area: 'tasks',
    exception: {
      allowed: 'public',
      reason:
        'a personal iCalendar feed is fetched by Outlook or Google Calendar, which hold no session: the secret address is the credential (regenerated by its owner, stored hashed), as a reset link is',
    },
  },
  // The dashboards (prompt service; /dashboards/saas: tenant service).
  'GET /api/dashboards/analytics': { area: 'analytics' },
  'GET /api/dashboards/scorecards': { area: 'analytics' },
  'GET /api/dashboards/calls': { area: 'analytics' },
  'GET /api/dashboards/crm': { area: 'crm' },
  'GET /api/dashboards/saas': { area: 'saas' },
  'GET /api/features': { area: 'features' },
  'PUT /api/features/:key': { area: 'features' },
  'GET /api/features/enabled': {
    area: 'features',
    exception: {
      allowed: ['HOST_ADMIN', 'ADMIN', 'USER', 'CALLER'],
      reason:
        'every signed-in member reads which features are on for their own company (nothing else, read-only), so the menu hides what is switched off',
    },
  },
  'PUT /api/companies/:id/features': { area: 'features' },
  'GET /api/companies/:id/features': {
    area: 'features',
    exception: {
      allowed: ['HOST_ADMIN', 'ADMIN'],
      reason:
        'a company administrator reads which features their own company has (read-only; another company is a 404), so the console shows only what is switched on',
    },
  },

  // E-mail templates and the outgoing mail they make.
  'GET /api/email': { area: 'emailTemplates' },
  'POST /api/email': { area: 'emailTemplates' },
  'POST /api/email/preview': { area: 'emailTemplates' },
  // Which notification mails one wants: part of one's own account (/profile).
  'GET /api/email/preferences': { area: 'account' },
  'PUT /api/email/preferences': { area: 'account' },
  'GET /api/email/outbox': { area: 'emailTemplates' },
  'GET /api/email/outbox/:id': { area: 'emailTemplates' },
  'GET /api/email/:id': { area: 'emailTemplates' },
  'PUT /api/email/:id': { area: 'emailTemplates' },
  'DELETE /api/email/:id': { area: 'emailTemplates' },
  'POST /api/email/:id/test': { area: 'emailTemplates' },
  'GET /api/audit': { area: 'auditLogs' },
  'GET /api/audit/export': { area: 'auditLogs' },
  'GET /api/audit/verify': { area: 'auditLogs' },
  'GET /api/audit/stream': { area: 'auditLogs' },
  'GET /api/audit/provisioning': {
    area: 'auditLogs',
    exception: {
      allowed: ['HOST_ADMIN', 'ADMIN'],
      reason:
        'a company administrator sees what their identity provider changed in their own company (the "last provisioning changes" of the sign-in and provisioning page), nothing else of the log',
    },
  },

  'GET /api/ai/config/provider': { area: 'aiConfig' },
  'GET /api/ai/config/provider/dropdown': { area: 'aiConfig' },
  'POST /api/ai/config/provider': { area: 'aiConfig' },
  'GET /api/ai/config/provider/:id': { area: 'aiConfig' },
  'PATCH /api/ai/config/provider/:id': { area: 'aiConfig' },
  'DELETE /api/ai/config/provider/:id': { area: 'aiConfig' },
  'POST /api/ai/config/provider/:id/test': { area: 'aiConfig' },
  'GET /api/ai/config/providers/:id/models': { area: 'aiConfig' },
  'GET /api/ai/config/model': { area: 'aiConfig' },
  'GET /api/ai/config/model/dropdown': { area: 'aiConfig' },
  'POST /api/ai/config/model': { area: 'aiConfig' },
  'GET /api/ai/config/model/:id': { area: 'aiConfig' },
  'PATCH /api/ai/config/model/:id': { area: 'aiConfig' },
  'DELETE /api/ai/config/model/:id': { area: 'aiConfig' },
  'POST /api/ai/config/model/:id/test': { area: 'aiConfig' },
  // The speech models of the machine are part of AI Configuration.
  'GET /api/ai/speech-models': { area: 'aiConfig' },
  'POST /api/ai/speech-models/:name/download': { area: 'aiConfig' },
  'POST /api/ai/speech-models/:name/cancel': { area: 'aiConfig' },
  'DELETE /api/ai/speech-models/:name': { area: 'aiConfig' },
  'PUT /api/ai/speech-models/:name/default': { area: 'aiConfig' },
  // Whether speakers will be separated is said on the upload form, which every member uses.
  'GET /api/ai/speech-models/readiness': { area: 'transcripts' },

  'GET /api/prompts': { area: 'prompts' },
  'POST /api/prompts': { area: 'prompts' },
  'GET /api/prompts/:id': { area: 'prompts' },
  'GET /api/prompts/:id/versions': { area: 'prompts' },
  'PUT /api/prompts/:id': { area: 'prompts' },
  'DELETE /api/prompts/:id': { area: 'prompts' },
  // The prompts a person may run on a transcript (/transcripts/{id}/analysis, visible to all).
  'GET /api/prompts/available': { area: 'transcripts' },
  'GET /api/prompts/available/:id': { area: 'transcripts' },
  ...Object.fromEntries(
    [
      'GET /api/analysis/patterns',
      'POST /api/analysis/patterns',
      'GET /api/analysis/patterns/:id',
      'PUT /api/analysis/patterns/:id',
      'DELETE /api/analysis/patterns/:id',
    ].map((key) => [
      key,
      {
        area: 'prompts',
        exception: {
          allowed: ['HOST_ADMIN', 'ADMIN'],
          reason:
            'analysis patterns are managed by the platform administrator (global ones) and by each company’s administrator (their own company’s; another company’s is a 404)',
        },
      } satisfies Permission,
    ]),
  ),

  // Transcript analysis (/transcripts/{id}/analysis, visible to all): runs and call analytics.
  'POST /api/analysis/transcripts': { area: 'transcripts' },
  'GET /api/analysis/transcripts': { area: 'transcripts' },
  'DELETE /api/analysis/transcripts/:runId': { area: 'transcripts' },
  'GET /api/analysis/transcripts/:fileId/metrics': { area: 'transcripts' },

  'POST /api/files/upload': { area: 'transcripts', exception: SERVICE_TOO },
  'GET /api/files': { area: 'transcripts', exception: SERVICE_TOO },
  'GET /api/files/:id': { area: 'transcripts', exception: SERVICE_TOO },
  'GET /api/uploads/*': { area: 'transcripts' },
  // Tags describe the company's recordings; every member sets a recording's tags (as they
  // correct its words) and reads the company's tags.
  'PUT /api/files/:fileId/tags': { area: 'transcripts' },
  // A legal hold on a recording, like a client's (see LEGAL_HOLD).
  'PUT /api/files/:id/hold': { area: 'transcripts', exception: LEGAL_HOLD },
  'GET /api/files/encryption/:id': {
    area: 'companies',
    exception: {
      allowed: ['HOST_ADMIN', 'ADMIN'],
      reason:
        'a company administrator sees how far the encryption of their own company’s recordings has come, like its policies (read-only; another company is a 404)',
    },
  },
  'GET /api/tags': { area: 'transcripts' },
  'PUT /api/tags/:name': { area: 'transcripts', exception: TAGS_ACROSS_COMPANY },
  'DELETE /api/tags/:name': { area: 'transcripts', exception: TAGS_ACROSS_COMPANY },
  'GET /api/transcripts/status': { area: 'transcripts', exception: SERVICE_TOO },
  'GET /api/transcripts/queue': { area: 'transcripts', exception: COMPANY_QUEUE_READ },
  'GET /api/transcripts/file/:fileId': { area: 'transcripts', exception: SERVICE_TOO },
  // A kept unredacted original is readable only by the company's ADMIN (the platform
  // administrator included among those refused); another company's is a 404.
  'GET /api/transcripts/:id/original': { area: 'transcripts', exception: ORIGINAL_READER },
  'GET /api/transcripts/:id/original/audio': { area: 'transcripts', exception: ORIGINAL_READER },
  // An export is the transcript read in another format (a reader may export): the API key too.
  'GET /api/transcripts/:fileId/export': { area: 'transcripts', exception: SERVICE_TOO },
  'POST /api/transcripts/export': { area: 'transcripts', exception: SERVICE_TOO },
  'GET /api/transcripts/:fileId/peaks': { area: 'transcripts' },
  'POST /api/transcripts/transcribe': { area: 'transcripts' },
  'PUT /api/transcripts/:transcriptId/metadata/words/:wordId': { area: 'transcripts' },
  // Editing beyond one word follows the rule of word edits (every member of the company).
  'GET /api/transcripts/people': { area: 'transcripts' },
  'PUT /api/transcripts/:fileId/speakers/:speakerId': { area: 'transcripts' },
  'POST /api/transcripts/:fileId/speakers/merge': { area: 'transcripts' },
  'PUT /api/transcripts/:fileId/segments/:segmentId': { area: 'transcripts' },
  'POST /api/transcripts/:fileId/segments/:segmentId/split': { area: 'transcripts' },
  'POST /api/transcripts/:fileId/segments/:segmentId/merge': { area: 'transcripts' },
  'POST /api/transcripts/:fileId/replace': { area: 'transcripts' },
  'GET /api/transcripts/:fileId/edits': { area: 'transcripts' },
  'GET /api/transcripts/:fileId/edits/mine': { area: 'transcripts' },
  'POST /api/transcripts/:fileId/edits/:editId/undo': { area: 'transcripts' },
  'POST /api/transcripts/:fileId/edits/:editId/redo': { area: 'transcripts' },
  'DELETE /api/transcripts/:id': { area: 'transcripts' },
  // Search across every call reads the transcripts every member reads (not the API key's).
  'GET /api/search': { area: 'transcripts' },
  'PUT /api/transcripts/link-client': {
    area: 'clients',
    exception: {
      allowed: ['HOST_ADMIN', 'ADMIN', 'CALLER'],
      reason:
        'linking a transcript to a client is a clients action (ADMIN, CALLER); the platform administrator, who may correct any company’s transcripts, may fix a wrong link too',
    },
  },

  'POST /api/clients': { area: 'clients' },
  'PUT /api/clients/:id': { area: 'clients' },
  'DELETE /api/clients/:id': { area: 'clients' },
  // A legal hold decides what the company must keep, a compliance decision: the company's
  // ADMIN for their own clients and the platform administrator for any (a CALLER manages clients
  // but does not decide what is kept).
  'PUT /api/clients/:id/hold': { area: 'clients', exception: LEGAL_HOLD },
  'GET /api/clients': { area: 'clients', exception: CLIENTS_READ_BY_HOST },
  'GET /api/clients/dropdown': { area: 'clients', exception: CLIENTS_READ_BY_HOST },
  'GET /api/clients/:id': { area: 'clients', exception: CLIENTS_READ_BY_HOST },

  'GET /api/chat/conversations': { area: 'chat' },
  'POST /api/chat/conversations': { area: 'chat' },
  'PATCH /api/chat/conversations/:id': { area: 'chat' },
  'DELETE /api/chat/conversations/:id': { area: 'chat' },
  'GET /api/chat/conversations/:id/messages': { area: 'chat' },
  // Which assistants and models a person can pick for a reply.
  'GET /api/chat/models': { area: 'chat' },
  'POST /api/chat/conversations/:id/chat/stream': { area: 'chat' },
  // Chat about one recording; the recording must be one the caller may see.
  'GET /api/chat/conversationsByAnalysis/:id': { area: 'chat' },
  'POST /api/chat/analysis-conversations/chat/stream': { area: 'chat' },
  'POST /api/chat/feedback': { area: 'chat' },

  // Usage and statements.
  'GET /api/companies/:id/usage': { area: 'pricing', exception: COMPANY_USAGE_READ },
  'GET /api/companies/:id/usage.csv': { area: 'pricing', exception: COMPANY_USAGE_READ },
  'GET /api/companies/:id/statement': { area: 'pricing', exception: COMPANY_USAGE_READ },
  'GET /api/companies/:id/statement.pdf': { area: 'pricing', exception: COMPANY_USAGE_READ },
  // One's own monthly cap, spend and usage (a USER sees their own): part of one's own account.
  'GET /api/credits/me': { area: 'account' },
  'GET /api/credits/me/usage': { area: 'account' },

  // Custom GPTs are managed by HOST_ADMIN (platform GPTs) and ADMIN (their company's);
  // everyone signed in picks one in chat and opens the files its answers cite.
  'GET /api/custom-gpt': { area: 'customGpts' },
  'POST /api/custom-gpt': { area: 'customGpts' },
  'GET /api/custom-gpt/dropdown': { area: 'chat' },
  'GET /api/custom-gpt/:id': { area: 'customGpts' },
  'PUT /api/custom-gpt/:id': { area: 'customGpts' },
  'DELETE /api/custom-gpt/:id': { area: 'customGpts' },
  'POST /api/custom-gpt/:id/duplicate': { area: 'customGpts' },
  'GET /api/custom-gpt/:id/files': { area: 'customGpts' },
  'POST /api/custom-gpt/:id/files': { area: 'customGpts' },
  'GET /api/custom-gpt/:id/files/:docId': { area: 'chat' },
  'DELETE /api/custom-gpt/:id/files/:docId': { area: 'customGpts' },

  // Outgoing webhooks of a company.
  'GET /api/webhook-event-types': { area: 'webhooks' },
  'GET /api/webhooks': { area: 'webhooks' },
  'POST /api/webhooks': { area: 'webhooks' },
  'GET /api/webhooks/:id': { area: 'webhooks' },
  'PUT /api/webhooks/:id': { area: 'webhooks' },
  'DELETE /api/webhooks/:id': { area: 'webhooks' },
  'POST /api/webhooks/:id/rotate-secret': { area: 'webhooks' },
  'POST /api/webhooks/:id/test': { area: 'webhooks' },
  'GET /api/webhooks/:id/deliveries': { area: 'webhooks' },
  'POST /api/webhooks/:id/deliveries/:deliveryId/resend': { area: 'webhooks' },

  // A company's SCIM tokens and the SCIM API its identity provider calls with one.
  'POST /api/companies/:id/scim-tokens': { area: 'identity' },
  'GET /api/companies/:id/scim-tokens': { area: 'identity' },
  'DELETE /api/companies/:id/scim-tokens/:tokenId': { area: 'identity' },
  'GET /api/scim/v2/ServiceProviderConfig': { area: 'provisioning' },
  'GET /api/scim/v2/ResourceTypes': { area: 'provisioning' },
  'GET /api/scim/v2/Schemas': { area: 'provisioning' },
  'GET /api/scim/v2/Users': { area: 'provisioning' },
  'POST /api/scim/v2/Users': { area: 'provisioning' },
  'GET /api/scim/v2/Users/:id': { area: 'provisioning' },
  'PUT /api/scim/v2/Users/:id': { area: 'provisioning' },
  'PATCH /api/scim/v2/Users/:id': { area: 'provisioning' },
  'DELETE /api/scim/v2/Users/:id': { area: 'provisioning' },
  'GET /api/scim/v2/Groups': { area: 'provisioning' },
  'POST /api/scim/v2/Groups': { area: 'provisioning' },
  'GET /api/scim/v2/Groups/:id': { area: 'provisioning' },
  'PUT /api/scim/v2/Groups/:id': { area: 'provisioning' },
  'PATCH /api/scim/v2/Groups/:id': { area: 'provisioning' },
  'DELETE /api/scim/v2/Groups/:id': { area: 'provisioning' },
};

/** The key a route has in ROUTES. */
export const routeKey = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

/** Who may call a route by the table: its exception when it has one, else its area's roles. */
export function allowedBy(permission: Permission): Allowed {
  return permission.exception?.allowed ?? AREAS[permission.area];
}
