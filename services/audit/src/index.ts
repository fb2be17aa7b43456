import { defineService, onEvery } from '@earshot/kit';
import { migrations } from './db/migrations';
import { AuditLog } from './services/audit';
import { auditRoutes } from './routes/audit';

/** The audit service: an append-only log of every event on every topic. See README.md. */
export const auditService = defineService({
  name: 'audit',
  schema: 'audit',
  prefixes: ['/audit'],
  migrations,
  async routes(app, ctx) {
    await auditRoutes(app, new AuditLog(ctx));
  },
  // Every event as it was written (any version, unknown types too): the log records what happened.
  subscriptions: (ctx) => {
    const audit = new AuditLog(ctx);
    return [onEvery((envelopes, tx) => audit.record(tx, envelopes))];
  },
});
