import { defineService } from '@earshot/kit';
import { CompanyState, type Envelope } from '@earshot/contracts';
import { authConfigShape, type AuthConfig } from './config';
import { migrations } from './db/migrations';
import { markCompanyDeleted, upsertCompany } from './repositories/companies';
import { revokeCompanySessions } from './repositories/tokens';
import { authRoutes } from './routes/auth';
import { userRoutes } from './routes/users';
import { startAuth } from './services/bootstrap';

const COMPANY_EVENTS = new Set(['company.created', 'company.updated', 'company.deleted']);

/** The auth service: users, credentials, roles, sessions, sign-in providers. See README.md. */
export const authService = defineService<AuthConfig>({
  name: 'auth',
  schema: 'auth',
  prefixes: ['/auth', '/users', '/roles'],
  migrations,
  configShape: authConfigShape,
  async routes(app, ctx) {
    await authRoutes(app, ctx);
    await userRoutes(app, ctx);
  },
  subscriptions: (ctx) => [{
    group: 'auth',
    topics: ['earshot.tenant'],
    // The company projection: domain (sign-in), status (who may sign in) and max users (registration).
    handle: (envelope: Envelope) => ctx.applyOnce('auth', envelope, async (tx) => {
      if (!COMPANY_EVENTS.has(envelope.type)) return;
      const data = envelope.data as { id: string; after?: unknown };
      if (envelope.type === 'company.deleted') {
        await markCompanyDeleted(tx, data.id);
        await revokeCompanySessions(tx, data.id);
        return;
      }
      const company = CompanyState.parse(data.after);
      await upsertCompany(tx, { id: data.id, domain: company.domain, status: company.status, maxUsers: company.maxUsers });
    }).then(() => undefined),
  }],
  start: startAuth,
});
