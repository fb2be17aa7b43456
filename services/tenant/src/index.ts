import { defineService, on } from '@earshot/kit';
import { migrations } from './db/migrations';
import { applyRecordingEvent, ClientService, RECORDING_EVENTS } from './services/clients';
import { CompanyService } from './services/companies';
import { FeatureService } from './services/features';
import { applyUserEvent } from './services/members';
import { clientRoutes } from './routes/clients';
import { companyRoutes } from './routes/companies';
import { configRoutes } from './routes/config';
import { featureRoutes } from './routes/features';

/** The tenant service: companies, their branding, API keys and feature switches; clients. See README.md. */
export const tenantService = defineService({
  name: 'tenant',
  schema: 'tenant',
  prefixes: ['/companies', '/config', '/features', '/clients', '/pricing', '/email'],
  migrations,
  async routes(app, ctx) {
    const companies = new CompanyService(ctx);
    await companyRoutes(app, companies);
    await configRoutes(app, companies);
    await featureRoutes(app, new FeatureService(ctx));
    await clientRoutes(app, new ClientService(ctx));
  },
  // Per user, the newest event wins: a late user.updated cannot re-add a user deleted after it.
  subscriptions: () => [
    ...(['user.created', 'user.updated', 'user.deleted'] as const).map((type) =>
      on(type, (event, tx) => applyUserEvent(tx, event), { entity: (event) => event.data.id })),
    // Recordings of the company, for a client's profile: each event sets only the facts it carries.
    ...RECORDING_EVENTS.map((type) => on(type, (event, tx) => applyRecordingEvent(tx, event))),
  ],
});
