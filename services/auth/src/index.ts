import { defineService, on } from '@earshot/kit';
import { authConfigShape, type AuthConfig } from './config';
import { migrations } from './db/migrations';
import { markCompanyDeleted, upsertCompany } from './repositories/companies';
import { revokeCompanySessions } from './repositories/tokens';
import { authRoutes } from './routes/auth';
import { userRoutes } from './routes/users';
import { startAuth } from './services/bootstrap';

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
  // The company projection: domain (sign-in), status (who may sign in) and max users (registration).
  // Per company the newest event wins, so a late company.updated cannot revive a deleted company.
  subscriptions: () => {
    const company = { entity: (event: { data: { id: string } }) => event.data.id };
    return [
      ...(['company.created', 'company.updated'] as const).map((type) => on(type, async ({ data }, tx) => {
        if (!data.after) return;
        await upsertCompany(tx, { id: data.id, domain: data.after.domain, status: data.after.status, maxUsers: data.after.maxUsers });
      }, company)),
      on('company.deleted', async ({ data }, tx) => {
        await markCompanyDeleted(tx, data.id);
        await revokeCompanySessions(tx, data.id);
      }, company),
    ];
  },
  start: startAuth,
});
