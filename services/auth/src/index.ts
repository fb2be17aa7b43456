import { defineService } from '@earshot/kit';
import { CompanyState, SYSTEM_ACTOR, type Envelope } from '@earshot/contracts';
import { authConfigShape, type AuthConfig } from './config';
import { migrations } from './db/migrations';
import { findCompany, markCompanyDeleted, upsertCompany } from './repositories/companies';
import { revokeCompanySessions } from './repositories/tokens';
import { authRoutes } from './routes/auth';
import { userRoutes } from './routes/users';
import { startAuth } from './services/bootstrap';
import { authContext } from './services/context';
import { authServices } from './services/index';
import { BLOCKED_COMPANY_STATUSES, announceEnded, recordEnded, type EndedSessions } from './services/sessions';

const COMPANY_EVENTS = new Set(['company.created', 'company.updated', 'company.deleted']);

/** The auth service: users, credentials, roles, sessions, sign-in providers. See README.md. */
export const authService = defineService<AuthConfig>({
  name: 'auth',
  schema: 'auth',
  prefixes: ['/auth', '/users', '/roles'],
  migrations,
  configShape: authConfigShape,
  async routes(app, ctx) {
    const auth = await authContext(ctx);
    const services = authServices(auth);
    await authRoutes(app, auth, services);
    await userRoutes(app, auth, services);
  },
  subscriptions: (ctx) => [{
    group: 'auth',
    topics: ['earshot.tenant'],
    // The company projection: domain (sign-in), status (who may sign in) and max users (registration).
    // A company deleted or switched off ends its people's sessions at once.
    handle: async (envelope: Envelope) => {
      let ended: EndedSessions | null = null;
      await ctx.applyOnce('auth', envelope, async (tx, emit) => {
        if (!COMPANY_EVENTS.has(envelope.type)) return;
        const data = envelope.data as { id: string; after?: unknown };
        const endAll = async () => {
          const sessionIds = await revokeCompanySessions(tx, data.id);
          ended = await recordEnded(ctx, tx, emit, { sessionIds, userId: null, companyId: data.id, reason: 'company_blocked', actor: envelope.actor ?? SYSTEM_ACTOR });
        };
        if (envelope.type === 'company.deleted') {
          await markCompanyDeleted(tx, data.id);
          await endAll();
          return;
        }
        const company = CompanyState.parse(data.after);
        const before = await findCompany(tx, data.id);
        await upsertCompany(tx, { id: data.id, domain: company.domain, status: company.status, maxUsers: company.maxUsers });
        const blocked = BLOCKED_COMPANY_STATUSES.has(company.status.toLowerCase());
        if (blocked && !(before && BLOCKED_COMPANY_STATUSES.has(before.status.toLowerCase()))) await endAll();
      });
      announceEnded(ctx, ended);
    },
  }],
  start: startAuth,
});
