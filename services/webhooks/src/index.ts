import { ContextTimers, createStorage, defineService, storageConfigShape } from '@earshot/kit';
import { webhooksConfigShape, type WebhooksConfig } from './config';
import { migrations } from './db/migrations';
import { webhookRoutes } from './routes/webhooks';
import { EndpointService } from './services/endpoints';
import { subscriptions } from './services/events';
import { webhooksErasePart, webhooksExportPart } from './services/privacy';
import { workerOf } from './services/worker';

const timers = new ContextTimers();
/** How often finished deliveries past WEBHOOK_DELIVERY_RETENTION_DAYS are removed. */
const PURGE_EVERY_MS = 3_600_000;

/** Outgoing webhooks: a company's endpoints and their signed, retried deliveries. See README.md. */
export const webhooksService = defineService<WebhooksConfig>({
  name: 'webhooks',
  schema: 'webhooks',
  prefixes: ['/webhooks', '/webhook-event-types'],
  migrations,
  configShape: { ...webhooksConfigShape, ...storageConfigShape },
  async routes(app, ctx) {
    await webhookRoutes(app, new EndpointService(ctx));
  },
  subscriptions: (ctx) => [...subscriptions(ctx), webhooksExportPart(createStorage(ctx.config)), webhooksErasePart],
  // New deliveries wake the worker themselves; the timer picks up retries that fall due, and what
  // another replica (or a stopped process) left.
  async start(ctx) {
    const worker = workerOf(ctx);
    worker.wake();
    timers.every(ctx, ctx.config.WEBHOOK_POLL_MS, () => worker.wake());
    timers.every(ctx, PURGE_EVERY_MS, () => void worker.purge());
  },
  async stop(ctx) {
    timers.stop(ctx);
    await workerOf(ctx).stop();
  },
});

export { workerOf, RETRY_SCHEDULE_MS, MAX_ATTEMPTS } from './services/worker';
export type { WebhooksConfig } from './config';
