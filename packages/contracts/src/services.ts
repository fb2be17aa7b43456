/**
 * Which service answers which part of the API: the gateway of distributed mode routes `/api<prefix>`
 * and `/api<prefix>/*` to the service's URL (a prefix may name a path parameter, `:id`) (read from `urlEnv`) with this table alone, never by
 * loading a service's code. Each service module declares the same prefixes; a test keeps them equal.
 */
export interface ServiceRoute {
  name: string;
  prefixes: readonly string[];
  /** Environment variable holding the service's origin, e.g. http://auth:3000. */
  urlEnv: string;
}

const route = (name: string, prefixes: readonly string[]): ServiceRoute => ({
  name,
  prefixes,
  urlEnv: `${name.toUpperCase()}_SERVICE_URL`,
});

export const SERVICE_ROUTES: readonly ServiceRoute[] = [
  route('audit', ['/audit']),
  route('tenant', ['/companies', '/config', '/features', '/clients', '/dashboards/saas']),
  // A company's credits, usage and statements sit under the tenant's '/companies': the gateway's
  // router prefers these sub-paths (a static segment after the id) to the tenant's wildcard.
  route('billing', [
    '/pricing',
    '/credits',
    '/companies/:id/credits',
    '/companies/:id/usage',
    '/companies/:id/usage.csv',
    '/companies/:id/statement',
    '/companies/:id/statement.pdf',
  ]),
  // A company's single sign-on settings sit under the tenant's '/companies' like billing's sub-paths.
  route('auth', ['/auth', '/users', '/roles', '/privacy', '/companies/:id/sso']),
  route('file', ['/files', '/uploads', '/tags']),
  // '/ai/speech-models' is more specific than prompt's '/ai', so the gateway routes it here.
  route('transcription', ['/transcripts', '/search', '/ai/speech-models']),
  // '/dashboards/saas' is more specific than prompt's '/dashboards', so the gateway routes it to tenant.
  route('prompt', ['/prompts', '/analysis', '/ai', '/dashboards']),
  route('chat', ['/chat', '/custom-gpt']),
  route('messaging', ['/email', '/notifications', '/inbox']),
  route('tasks', ['/tasks', '/calendar']),
  route('webhooks', ['/webhooks', '/webhook-event-types']),
];

/** Where a standalone service serves its own OpenAPI document (outside /api: the gateway fetches it). */
export const SERVICE_OPENAPI_PATH = '/openapi.json';
