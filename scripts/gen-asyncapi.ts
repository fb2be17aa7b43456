// Generates docs/asyncapi.yaml (AsyncAPI 3.0) from the event catalogue in @earshot/contracts:
// one channel per Kafka topic, one message per event type (the envelope plus that type's data
// schema). Run `npx tsx scripts/gen-asyncapi.ts` after adding or changing an event; a test fails
// while the committed file differs from what this produces.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stringify } from 'yaml';
import { z } from 'zod';
import {
  Actor,
  AUDIT_TOPIC,
  EVENT_CATALOGUE,
  Envelope,
  TOPICS,
  WEBHOOK_DATA,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EXAMPLES,
  WEBHOOK_TEST_EVENT,
} from '@earshot/contracts';

export const ASYNCAPI_PATH = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'asyncapi.yaml');

type JsonSchema = Record<string, unknown>;

/** AsyncAPI schemas follow JSON Schema draft 7; the dialect marker is left out (it is implied). */
function jsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'output',
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

const DOMAINS: Record<string, string> = {
  'earshot.auth': 'Users, sign-ins and sessions (auth service).',
  'earshot.tenant': 'Companies and their settings (tenant service).',
  'earshot.file': 'Uploaded audio files (file service).',
  'earshot.transcription': 'Transcription jobs and transcripts (transcription service).',
  'earshot.chat': 'Conversations and assistants (chat service).',
  'earshot.prompt': 'Prompts, analyses and AI providers (prompt service).',
  'earshot.webhooks': "Companies' webhook endpoints: registered, changed, rotated, turned off (webhooks service).",
  [AUDIT_TOPIC]:
    "The audit log's hash chains entry by entry, and the daily anchors (audit service), for outside consumers: a SIEM, a compliance archive.",
};

export function buildAsyncApi(): Record<string, unknown> {
  const envelope = jsonSchema(Envelope.extend({ actor: z.unknown() }));
  (envelope.properties as Record<string, unknown>).actor = { $ref: '#/components/schemas/Actor' };

  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};

  for (const topic of [...TOPICS].sort()) {
    const events = EVENT_CATALOGUE.filter((e) => e.topic === topic).sort((a, b) => a.type.localeCompare(b.type));
    channels[topic] = {
      address: topic,
      title: topic,
      description: `${DOMAINS[topic] ?? 'Events of one domain.'} Keyed by company id ("platform" for events of no company), so one company's events stay in order.`,
      messages: Object.fromEntries(events.map((e) => [e.type, { $ref: `#/components/messages/${e.type}` }])),
    };
    const refs = events.map((e) => ({ $ref: `#/channels/${topic}/messages/${e.type}` }));
    operations[`publish.${topic}`] = {
      action: 'send',
      channel: { $ref: `#/channels/${topic}` },
      summary: `The owning service publishes ${topic} events from its transactional outbox (at least once).`,
      messages: refs,
    };
    operations[`consume.${topic}`] = {
      action: 'receive',
      channel: { $ref: `#/channels/${topic}` },
      summary:
        topic === AUDIT_TOPIC
          ? 'Outside consumers (`npm run audit -- follow` is the reference) check each entry against the one before (prevHash) and its hash (SHA-256 of the entry as canonical JSON) as it arrives; the audit service does not read this topic back.'
          : 'Consumers (one Kafka consumer group per service; the audit service reads every topic but earshot.audit) must be idempotent by event id.',
      messages: refs,
    };
    for (const e of events) {
      messages[e.type] = {
        name: e.type,
        title: e.type,
        summary: e.description,
        ...(e.past?.length
          ? {
              description: `Current version ${e.version}. Events of earlier versions (${e.past.map((p) => `v${p.version}`).join(', ')}) may still be delivered; the contracts upcast them to v${e.version} for handlers.`,
            }
          : {}),
        contentType: 'application/json',
        headers: {
          type: 'object',
          properties: {
            type: { type: 'string', const: e.type, description: 'The event type, also in the envelope.' },
            traceparent: {
              type: 'string',
              description:
                "W3C trace context of the publish span (present when the publisher traces): a consumer's span continues the trace.",
            },
            tracestate: { type: 'string', description: 'W3C trace state, when the trace carries any.' },
          },
          required: ['type'],
        },
        payload: {
          allOf: [
            { $ref: '#/components/schemas/Envelope' },
            {
              type: 'object',
              properties: { type: { const: e.type }, version: { const: e.version }, data: jsonSchema(e.data) },
            },
          ],
        },
        bindings: {
          kafka: { key: { type: 'string', description: 'The company id, or "platform".' }, bindingVersion: '0.5.0' },
        },
      };
    }
  }

  webhookDeliveries(channels, operations, messages);

  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Earshot events',
      version: '1.0.0',
      description:
        'Every state change in Earshot is published as a past-tense event in a common envelope ' +
        '{id, type, version, occurredAt, companyId, actor, data}. Generated from the contracts package ' +
        'by scripts/gen-asyncapi.ts: do not edit by hand.',
    },
    defaultContentType: 'application/json',
    servers: {
      kafka: {
        host: 'kafka:9092',
        protocol: 'kafka',
        description: 'The Kafka cluster named by KAFKA_BROKERS (distributed mode).',
      },
      receiver: {
        host: 'crm.example.com',
        protocol: 'https',
        description: "A company's own webhook endpoint (its URL as registered at /api/webhooks), outside Earshot.",
      },
    },
    channels,
    operations,
    components: {
      schemas: { Envelope: envelope, Actor: jsonSchema(Actor) },
      messages,
    },
  };
}

/**
 * What companies' webhook endpoints receive: one HTTP POST per event, `{type, timestamp, data}`,
 * signed per Standard Webhooks (services/webhooks/README.md).
 */
function webhookDeliveries(
  channels: Record<string, unknown>,
  operations: Record<string, unknown>,
  messages: Record<string, unknown>,
): void {
  const descriptions: Record<string, string> = {
    ...WEBHOOK_EVENT_TYPES,
    [WEBHOOK_TEST_EVENT]: 'A test event an ADMIN sent from the console (POST /api/webhooks/{id}/test).',
  };
  const types = Object.keys(WEBHOOK_DATA).sort() as Array<keyof typeof WEBHOOK_DATA>;
  const key = (type: string) => `webhook.${type}`;
  const header = (description: string) => ({ type: 'string', description });
  for (const type of types) {
    messages[key(type)] = {
      name: key(type),
      title: `Webhook ${type}`,
      summary: descriptions[type],
      contentType: 'application/json',
      headers: {
        type: 'object',
        required: ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
        properties: {
          'webhook-id': header('The delivery id: the same on every attempt and on a resend.'),
          'webhook-timestamp': header("The attempt's time, in seconds since 1970."),
          'webhook-signature': header(
            'v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>"> keyed with the secret (after whsec_, base64-decoded); two, space-separated, for 24 h after a rotation.',
          ),
        },
      },
      payload: {
        type: 'object',
        required: ['type', 'timestamp', 'data'],
        properties: {
          type: { const: type },
          timestamp: { type: 'string', format: 'date-time', description: 'When the event happened.' },
          data: jsonSchema(WEBHOOK_DATA[type]),
        },
      },
      examples: [{ payload: { type, timestamp: '2026-11-29T09:12:03.518Z', data: WEBHOOK_EXAMPLES[type] } }],
    };
  }
  channels.webhooks = {
    address: '{endpoint}',
    title: 'Webhook deliveries',
    description:
      "HTTP POSTs to a company's registered endpoints: at least once, in order per endpoint, retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h. Answer 2xx within 10 s; redirects are not followed.",
    servers: [{ $ref: '#/servers/receiver' }],
    parameters: { endpoint: { description: 'The endpoint URL the company registered.' } },
    messages: Object.fromEntries(types.map((type) => [key(type), { $ref: `#/components/messages/${key(type)}` }])),
  };
  operations['deliver.webhooks'] = {
    action: 'send',
    channel: { $ref: '#/channels/webhooks' },
    summary: 'The webhooks service signs and sends each event a company endpoint asked for.',
    messages: types.map((type) => ({ $ref: `#/channels/webhooks/messages/${key(type)}` })),
  };
}

export function renderAsyncApi(): string {
  return `# Generated by scripts/gen-asyncapi.ts from @earshot/contracts. Do not edit by hand.\n${stringify(buildAsyncApi(), { lineWidth: 0, aliasDuplicateObjects: false })}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(ASYNCAPI_PATH, renderAsyncApi());
  console.log(`Wrote ${ASYNCAPI_PATH} (${EVENT_CATALOGUE.length} events on ${TOPICS.length} topics)`);
}
