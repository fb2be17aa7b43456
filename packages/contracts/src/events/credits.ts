import { z } from 'zod';
import { PRICE_UNITS } from '../credit-constants';
import { CreditSettingsDto, CurrencyDto } from '../api/credits';
import { defineEvent } from './envelope';

// Credits belong to the tenant service, so their facts ride on the tenant topic.
const topic = 'earshot.tenant';

/*
 * Facts of pricing and credits decided by people (and the monthly grant). Charges are not events:
 * each is the consequence of a usage event already on the bus (chat_reply.finished,
 * analysis.completed, transcript.completed, embeddings.used …), and one more event per charge
 * would double the bus's and the audit log's traffic for nothing they do not already hold. The
 * ledger (tenant service) keeps each charge with the id of the event that caused it.
 */
export const creditEvents = [
  defineEvent({
    type: 'price.set',
    version: 1,
    topic,
    description:
      'The platform administrator set a price (credits per unit of a model or speech engine) from effectiveFrom on; earlier charges keep the price they had.',
    data: z.object({
      id: z.string(),
      modelId: z.string().nullable(),
      engine: z.string().nullable(),
      unit: z.enum(PRICE_UNITS),
      credits: z.number(),
      effectiveFrom: z.string(),
    }),
  }),
  defineEvent({
    type: 'pricing.currency_changed',
    version: 1,
    topic,
    description: 'The display currency of credits, or its rate (currency units per credit), changed.',
    data: z.object({ before: CurrencyDto, after: CurrencyDto }),
  }),
  defineEvent({
    type: 'credits.granted',
    version: 1,
    topic,
    description:
      'Credits were added to a company: by the platform administrator (with a reason) or by its monthly grant (monthly: true).',
    data: z.object({
      entryId: z.string(),
      amount: z.number(),
      reason: z.string(),
      monthly: z.boolean(),
      balance: z.number(),
    }),
  }),
  defineEvent({
    type: 'credits.adjusted',
    version: 1,
    topic,
    description:
      "The platform administrator took credits off a company's balance (a negative adjustment, with a reason).",
    data: z.object({ entryId: z.string(), amount: z.number(), reason: z.string(), balance: z.number() }),
  }),
  defineEvent({
    type: 'credits.settings_changed',
    version: 1,
    topic,
    description: "A company's monthly budget or monthly grant changed.",
    data: z.object({ id: z.string(), before: CreditSettingsDto, after: CreditSettingsDto }),
  }),
  defineEvent({
    type: 'credits.threshold_reached',
    version: 1,
    topic,
    description:
      "A company's spend this month (UTC) reached 80 % or 100 % of its monthly budget (scope company), or a person's of their monthly cap (scope user); once per threshold and month.",
    data: z.object({
      scope: z.enum(['company', 'user']),
      userId: z.string().nullable(),
      threshold: z.number().int(),
      month: z.string(),
      spent: z.number(),
      limit: z.number(),
    }),
  }),
] as const;
