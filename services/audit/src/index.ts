import {
  ContextTimers,
  defineService,
  onEvery,
  startDailyJob,
  storageConfigShape,
  type ServiceContext,
  type StorageConfig,
} from '@earshot/kit';
import { AUDIT_TOPIC } from '@earshot/contracts';
import { migrations } from './db/migrations';
import { AuditLog } from './services/audit';
import { ANCHOR_POLL_MS, AnchorJob, anchorConfigShape, type AnchorConfig } from './services/anchor';
import { auditRoutes } from './routes/audit';
import { auditErasePart, auditExportPart } from './services/privacy';
import { auditFeed } from './services/stream';
import { auditRetention, retention } from './services/retention';

type AuditContext = ServiceContext<ServiceContext['config'] & AnchorConfig & StorageConfig>;
const timers = new ContextTimers();

/** The audit service: an append-only, hash-chained log of every event on every topic. See README.md. */
export const auditService = defineService<AuditContext['config']>({
  name: 'audit',
  schema: 'audit',
  prefixes: ['/audit'],
  migrations: [...migrations, retention.migration],
  // Storage: its part of a person's export is written there.
  configShape: { ...anchorConfigShape, ...storageConfigShape },
  async routes(app, ctx) {
    await auditRoutes(app, new AuditLog(ctx));
  },
  // Every event as it was written (any version, unknown types too): the log records what happened.
  subscriptions: (ctx) => {
    const audit = new AuditLog(ctx);
    // Besides: retention policies and company holds, for the daily audit retention.
    // And a person's data: the entries about them, for the auth service's ZIP; erasing keeps them.
    return [
      // Not its own topic: what it publishes there is its log already.
      onEvery((envelopes, tx, emit) => audit.record(tx, envelopes, emit), {
        except: [AUDIT_TOPIC],
        afterCommit: () => auditFeed(ctx).wake(),
      }),
      ...retention.handlers(),
      auditExportPart(ctx.config),
      auditErasePart,
    ];
  },
  // Entries from before the chain are sealed first; then the daily anchor, looked at like the
  // tenant's monthly grants: at start and on a timer, written once per UTC day by whoever is first.
  async start(ctx) {
    const sealed = await new AuditLog(ctx).chain.sealOldEntries((fn) => ctx.transact((tx) => fn(tx)));
    if (sealed > 0) ctx.logger.info({ chains: sealed }, 'audit entries from before the hash chain sealed');
    const job = new AnchorJob(ctx.db, ctx.logger, ctx.config, ctx.bus.kind === 'kafka' ? ctx.transact : undefined);
    const anchor = () =>
      job.run().then(
        () => undefined,
        (error: unknown) => ctx.logger.error({ err: error }, 'audit chain anchor failed'),
      );
    await anchor();
    timers.every(ctx, ANCHOR_POLL_MS, () => void anchor());
    const cut = auditRetention(ctx);
    timers.add(
      ctx,
      startDailyJob(ctx.logger, 'audit retention', (now) => cut.daily(now)),
    );
  },
  async stop(ctx) {
    timers.stop(ctx);
  },
});
