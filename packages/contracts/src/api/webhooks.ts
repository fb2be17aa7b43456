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

const Link = z.string().describe('An address in the console (PUBLIC_URL): a person signs in there to see more.');
const FileRef = { fileId: z.string(), link: Link };
const TaskData = z.object({
  taskId: z.string(),
  title: z.string(),
  status: z.string(),
  assigneeId: z.string().nullable(),
  dueDate: z.string().nullable().describe('YYYY-MM-DD'),
  clientId: z.string().nullable(),
  fileId: z.string().nullable().describe('The recording the task is about, if any.'),
  link: Link,
});

/**
 * The `data` of each webhook type: ids, names and links, never a transcript's words nor a secret.
 * The service builds every payload against these; the AsyncAPI document lists them.
 */
export const WEBHOOK_DATA = {
  'file.uploaded': z.object({
    ...FileRef,
    fileName: z.string(),
    mimeType: z.string(),
    size: z.number().int(),
    clientId: z.string().nullable(),
    uploadedBy: z.string().nullable(),
  }),
  'transcript.completed': z.object({
    transcriptId: z.string(),
    ...FileRef,
    fileName: z.string(),
    engine: z.string(),
    duration: z.number().describe('Seconds.'),
    speakers: z.number().int(),
    words: z.number().int().describe('How many words: never the words themselves.'),
  }),
  'transcript.failed': z.object({ ...FileRef, reason: z.string().nullable() }),
  'transcript.edited': z.object({ transcriptId: z.string(), ...FileRef, editId: z.string(), kind: z.string() }),
  'analysis.completed': z.object({
    runId: z.string(),
    fileId: z.string(),
    promptId: z.string(),
    promptVersion: z.number().int(),
    model: z.string().nullable(),
    durationMs: z.number().int(),
    link: Link,
  }),
  'task.created': TaskData,
  'task.updated': TaskData,
  'client.created': z.object({
    clientId: z.string(),
    name: z.string(),
    organisation: z.string().nullable(),
    externalId: z.string().nullable(),
    link: Link,
  }),
  'user.created': z.object({ userId: z.string(), firstName: z.string(), lastName: z.string(), role: z.string() }),
  'webhook.test': z.object({ endpointId: z.string(), message: z.string() }),
} as const satisfies Record<WebhookEventType | typeof WEBHOOK_TEST_EVENT, z.ZodObject>;
export type WebhookData<T extends keyof typeof WEBHOOK_DATA> = z.infer<(typeof WEBHOOK_DATA)[T]>;

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

const FILE = '7d2e9a40-1b3c-4d5e-8f90-a1b2c3d4e5f6';
const CONSOLE = 'https://console.example.com';

/** One `data` of each webhook type, as documented (README, AsyncAPI); a test parses each against WEBHOOK_DATA. */
export const WEBHOOK_EXAMPLES: { [T in keyof typeof WEBHOOK_DATA]: WebhookData<T> } = {
  'file.uploaded': {
    fileId: FILE,
    link: `${CONSOLE}/transcripts/${FILE}`,
    fileName: 'call-2026-11-29.wav',
    mimeType: 'audio/wav',
    size: 5_894_444,
    clientId: '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a',
    uploadedBy: '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9',
  },
  'transcript.completed': {
    transcriptId: '0b6f3c1e-5c1a-4a4e-9f1e-2d3c4b5a6978',
    fileId: FILE,
    link: `${CONSOLE}/transcripts/${FILE}`,
    fileName: 'call-2026-11-29.wav',
    engine: 'pocketsphinx',
    duration: 184.2,
    speakers: 2,
    words: 412,
  },
  'transcript.failed': {
    fileId: FILE,
    link: `${CONSOLE}/transcripts/${FILE}`,
    reason: 'The audio could not be decoded',
  },
  'transcript.edited': {
    transcriptId: '0b6f3c1e-5c1a-4a4e-9f1e-2d3c4b5a6978',
    fileId: FILE,
    link: `${CONSOLE}/transcripts/${FILE}`,
    editId: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
    kind: 'segment_text',
  },
  'analysis.completed': {
    runId: 'e4f5a6b7-c8d9-4e0f-a1b2-c3d4e5f6a7b8',
    fileId: FILE,
    promptId: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
    promptVersion: 3,
    model: 'gpt-4o-mini',
    durationMs: 4210,
    link: `${CONSOLE}/transcripts/${FILE}/analysis`,
  },
  'task.created': {
    taskId: '3a4b5c6d-7e8f-4a0b-9c1d-2e3f4a5b6c7d',
    title: 'Send the revised quote',
    status: 'todo',
    assigneeId: '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9',
    dueDate: '2026-12-02',
    clientId: null,
    fileId: FILE,
    link: `${CONSOLE}/task-list`,
  },
  'task.updated': {
    taskId: '3a4b5c6d-7e8f-4a0b-9c1d-2e3f4a5b6c7d',
    title: 'Send the revised quote',
    status: 'in_progress',
    assigneeId: '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9',
    dueDate: '2026-12-02',
    clientId: null,
    fileId: FILE,
    link: `${CONSOLE}/task-list`,
  },
  'client.created': {
    clientId: '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a',
    name: 'Acme Ltd',
    organisation: 'Acme Group',
    externalId: 'crm-4711',
    link: `${CONSOLE}/client/9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a`,
  },
  'user.created': {
    userId: '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9',
    firstName: 'Mari',
    lastName: 'Tamm',
    role: 'USER',
  },
  'webhook.test': { endpointId: 'b7c8d9e0-f1a2-4b3c-8d4e-5f6a7b8c9d0e', message: 'A test event from Earshot' },
};
