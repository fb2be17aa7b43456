import { ScrapedMetric, type ScrapedSource, type ServiceContext } from '@earshot/kit';
import { queueState } from './repositories/mail';

const mailQueue = new ScrapedMetric(
  'earshot_mail_queue',
  'Outgoing mail waiting to be sent (queued, including retries) or being sent',
  ['status'],
);
const mailOldest = new ScrapedMetric(
  'earshot_mail_queue_oldest_seconds',
  'Age of the oldest message in the outgoing mail queue (0 when it is empty)',
  [],
);

/** The outgoing mail queue, read when Prometheus scrapes. */
export function messagingMetrics(ctx: ServiceContext): ScrapedSource[] {
  // Each read stays on the queue's partial index (queued or sending), however much mail was ever sent.
  return [
    {
      metric: mailQueue,
      what: 'the mail queue',
      async read() {
        const { counts } = await queueState(ctx.db);
        return ['queued', 'sending'].map((status) => ({ labels: { status }, value: counts.get(status) ?? 0 }));
      },
    },
    {
      metric: mailOldest,
      what: 'the mail queue',
      read: async () => [{ labels: {}, value: (await queueState(ctx.db)).oldestSeconds }],
    },
  ];
}
