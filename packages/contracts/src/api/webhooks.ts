import { z } from 'zod';
import { Id } from '../common';

// Outgoing webhooks: the webhooks service answers /api/webhooks and /api/webhook-event-types.

/** The events a company's endpoint may ask for, each with what it means (GET /api/webhook-event-types). */
export const WEBHOOK_EVENT_TYPES = {
  'file.uploaded': 'A recording was uploaded; its transcription starts.',
  'transcript.completed': 'A transcript is ready (again, after a new transcription).',
  'transcript.failed': 'A transcription failed; the reason says why.',
  'transcript.edited': 'A person edited a transcript (words, speakers, segments).',
  'analysis.completed': 'An analysis of a transcript finished with a valid result.',
  'task.created': 'A task was created (by hand or from an analysis).',
  'task.updated': 'A task was changed (status, assignee, due date, title).',
  'client.created': 'A client of the company was created.',
  'user.created': 'A person was added to the company.',
} as const;
export type WebhookEventType = keyof typeof WEBHOOK_EVENT_TYPES;
export const WEBHOOK_EVENT_NAMES = Object.keys(WEBHOOK_EVENT_TYPES) as WebhookEventType[];

/** What POST /api/webhooks/{id}/test sends: offered to no subscription, delivered to the endpoint named. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WEBHOOK_LIMITS = {
  /** Endpoints per company: more is a 409. */
  endpoints: 20,
  urlLength: 2000,
  description: 500,
} as const;

/**
 * An endpoint's address: http(s), no credentials, at most 2,000 characters. Whether its host is
 * allowed (no private, loopback or link-local address) is decided by the service after resolving it.
 */
export const WebhookUrl = z
  .string()
  .trim()
  .min(1)
  .max(WEBHOOK_LIMITS.urlLength)
  .refine((value) => URL.canParse(value), 'must be an absolute URL')
  .refine((value) => !URL.canParse(value) || ['http:', 'https:'].includes(new URL(value).protocol), {
    message: 'must be an http or https URL',
  })
  .refine((value) => !URL.canParse(value) || (!new URL(value).username && !new URL(value).password), {
    message: 'must not carry a user name or password',
  });

const Events = z.array(z.string().min(1).max(100)).min(1).max(WEBHOOK_EVENT_NAMES.length);

export const WebhookCreateBody = z
  .object({
    url: WebhookUrl,
    events: Events,
    description: z.string().trim().max(WEBHOOK_LIMITS.description).default(''),
    enabled: z.boolean().default(true),
    /** The company the endpoint is for: the platform administrator's choice (others use their own). */
    companyId: Id.optional(),
  })
  .strict();
export type WebhookCreateBody = z.infer<typeof WebhookCreateBody>;
export type WebhookCreateInput = z.input<typeof WebhookCreateBody>;

export const WebhookUpdateBody = z
  .object({
    url: WebhookUrl.optional(),
    events: Events.optional(),
    description: z.string().trim().max(WEBHOOK_LIMITS.description).optional(),
    enabled: z.boolean().optional(),
  })
  .strict();
export type WebhookUpdateBody = z.infer<typeof WebhookUpdateBody>;

export const WebhookDto = z.object({
  id: z.string(),
  companyId: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string(),
  enabled: z.boolean(),
  /** Why the service turned the endpoint off (every delivery failing for days), null otherwise. */
  disabledReason: z.string().nullable(),
  /** Since when every delivery has failed (null: the last one succeeded, or none was tried). */
  failingSince: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookDto = z.infer<typeof WebhookDto>;

/** The signing secret, shown once: at creation and at each rotation. */
export const WebhookSecret = z.object({ secret: z.string() });
export type WebhookSecret = z.infer<typeof WebhookSecret>;
export const WebhookCreated = WebhookDto.extend({ secret: z.string() });
export type WebhookCreated = z.infer<typeof WebhookCreated>;

export const WebhookList = z.object({ items: z.array(WebhookDto) });
export type WebhookList = z.infer<typeof WebhookList>;
export const WebhookListQuery = z.object({ companyId: Id.optional() }).strict();

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const WebhookDeliveryDto = z.object({
  id: z.string(),
  eventType: z.string(),
  eventId: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  /** How long the last attempt took, in milliseconds. */
  lastDurationMs: z.number().int().nullable(),
  /** The first bytes (at most 4 KB read, 500 characters kept) of the last answer. */
  responseExcerpt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDeliveryDto = z.infer<typeof WebhookDeliveryDto>;

export const WebhookDeliveryPage = z.object({ items: z.array(WebhookDeliveryDto), total: z.number().int() });
export type WebhookDeliveryPage = z.infer<typeof WebhookDeliveryPage>;
export const WebhookDeliveryQuery = z
  .object({
    status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  })
  .strict();
export type WebhookDeliveryQuery = z.infer<typeof WebhookDeliveryQuery>;
export const WebhookDeliveryParams = z.object({ id: Id, deliveryId: Id }).strict();

export const WebhookEventTypeList = z.array(z.object({ type: z.string(), description: z.string() }));
export type WebhookEventTypeList = z.infer<typeof WebhookEventTypeList>;
