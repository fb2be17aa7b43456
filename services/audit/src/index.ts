import { TOPICS } from '@earshot/contracts';
import { defineService } from '@earshot/kit';
import { migrations } from './db/migrations';
import { auditLog } from './services/audit';
import { auditRoutes } from './routes/audit';

/** The audit service: an append-only log of every event on every topic. See README.md. */
export const auditService = defineService({
  name: 'audit',
  schema: 'audit',
  prefixes: ['/audit'],
  migrations,
  async routes(app, ctx) {
    await auditRoutes(app, auditLog(ctx));
  },
  subscriptions: (ctx) => {
    const audit = auditLog(ctx);
    return [{ group: 'audit', topics: TOPICS, handle: (envelope) => audit.record(envelope) }];
  },
});
