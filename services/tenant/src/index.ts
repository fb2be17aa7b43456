import { defineService } from '@earshot/kit';
import { migrations } from './db/migrations';
import { CompanyService } from './services/companies';
import { FeatureService } from './services/features';
import { applyUserEvent } from './services/members';
import { companyRoutes } from './routes/companies';
import { configRoutes } from './routes/config';
import { featureRoutes } from './routes/features';

/** The tenant service: companies, their branding, API keys and feature switches. See README.md. */
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
  },
  subscriptions: (ctx) => [{
    group: 'tenant',
    topics: ['earshot.auth'],
    handle: async (envelope) => {
      await ctx.applyOnce('tenant', envelope, (tx) => applyUserEvent(tx, envelope));
    },
  }],
});
