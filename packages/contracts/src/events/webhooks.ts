import { z } from 'zod';
import { change, defineEvent } from './envelope';

const topic = 'earshot.webhooks';

/** An endpoint as events carry it (audit before/after): never its secret. */
export const WebhookEndpointState = z.object({
  url: z.string(),
  events: z.array(z.string()),
  description: z.string(),
  enabled: z.boolean(),
});
export type WebhookEndpointState = z.infer<typeof WebhookEndpointState>;

export const webhookEvents = [
  defineEvent({
    type: 'webhook_endpoint.created',
    version: 1,
    topic,
    description: "A company's webhook endpoint was registered (its secret is never in an event).",
    data: change(WebhookEndpointState),
  }),
  defineEvent({
    type: 'webhook_endpoint.updated',
    version: 1,
    topic,
    description: 'A webhook endpoint was changed (address, event types, description, enabled).',
    data: change(WebhookEndpointState),
  }),
  defineEvent({
    type: 'webhook_endpoint.deleted',
    version: 1,
    topic,
    description: 'A webhook endpoint was deleted with its delivery log.',
    data: change(WebhookEndpointState),
  }),
  defineEvent({
    type: 'webhook_endpoint.secret_rotated',
    version: 1,
    topic,
    description:
      "A webhook endpoint's signing secret was replaced; the old one still signs until `previousValidUntil`.",
    data: z.object({ id: z.string(), previousValidUntil: z.string() }),
  }),
  defineEvent({
    type: 'webhook_endpoint.disabled',
    version: 1,
    topic,
    description:
      "Every delivery to a webhook endpoint failed for days: the service turned it off; the company's ADMINs are told.",
    data: z.object({ id: z.string(), url: z.string(), failingSince: z.string(), lastError: z.string().nullable() }),
  }),
] as const;
