import { ScrapedMetric, type ScrapedSource, type ServiceContext } from '@earshot/kit';
import { totalCharged } from './repositories/credits';

const creditsCharged = new ScrapedMetric(
  'earshot_credits_charged_total',
  "Credits charged to companies for AI use, all companies together (from the ledger's monthly spend)",
  [],
  'counter',
);

/** The ledger's total, read when Prometheus scrapes: the ledger is the truth, not a count kept beside it. */
export function billingMetrics(ctx: ServiceContext): ScrapedSource[] {
  return [
    {
      metric: creditsCharged,
      what: 'the credits charged',
      read: async () => [{ labels: {}, value: await totalCharged(ctx.db) }],
    },
  ];
}
