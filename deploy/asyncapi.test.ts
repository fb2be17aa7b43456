import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { EVENT_CATALOGUE, TOPICS, WEBHOOK_DATA, WEBHOOK_EXAMPLES } from '@earshot/contracts';
import { ASYNCAPI_PATH, renderAsyncApi } from '../scripts/gen-asyncapi';

// docs/asyncapi.yaml documents the events for people and external consumers. It is generated, and
// this test keeps it honest: a new or changed event fails here until the file is regenerated.
const committed = readFileSync(ASYNCAPI_PATH, 'utf8');

test('docs/asyncapi.yaml is what scripts/gen-asyncapi.ts generates from the catalogue now', () => {
  const fresh = renderAsyncApi();
  if (committed !== fresh) {
    throw new Error(
      'docs/asyncapi.yaml is out of date with the event catalogue: run `npx tsx scripts/gen-asyncapi.ts` and commit the result',
    );
  }
});

test('every topic is a channel and every event type a message of its channel (and webhook deliveries one more)', () => {
  const doc = parse(committed) as {
    asyncapi: string;
    channels: Record<string, { address: string; messages: Record<string, unknown> }>;
    components: {
      messages: Record<string, { payload: { allOf: [unknown, { properties: { type: { const: string } } }] } }>;
    };
  };
  expect(doc.asyncapi).toBe('3.0.0');
  expect(Object.keys(doc.channels).sort()).toEqual([...TOPICS, 'webhooks'].sort());
  for (const event of EVENT_CATALOGUE) {
    expect(doc.channels[event.topic]!.messages).toHaveProperty([event.type]);
    expect(doc.components.messages[event.type]!.payload.allOf[1].properties.type.const).toBe(event.type);
  }
});

test("every webhook type is a message of the webhooks channel, with its data's schema and an example that fits it", () => {
  const doc = parse(committed) as {
    channels: { webhooks: { messages: Record<string, unknown> } };
    components: { messages: Record<string, { payload: { properties: { data: unknown } }; examples: unknown[] }> };
  };
  for (const [type, schema] of Object.entries(WEBHOOK_DATA)) {
    expect(doc.channels.webhooks.messages).toHaveProperty([`webhook.${type}`]);
    const message = doc.components.messages[`webhook.${type}`]!;
    expect(message.payload.properties.data).toBeDefined();
    expect(message.examples).toHaveLength(1);
    expect(schema.strict().safeParse(WEBHOOK_EXAMPLES[type as keyof typeof WEBHOOK_EXAMPLES]).success).toBe(true);
  }
});

test('every $ref in the document resolves', () => {
  const doc = parse(committed) as unknown;
  const refs: string[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') refs.push(value);
        else walk(value);
      }
    }
  };
  walk(doc);
  expect(refs.length).toBeGreaterThan(EVENT_CATALOGUE.length);
  for (const ref of refs) {
    const target = ref
      .replace(/^#\//, '')
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], doc);
    expect([ref, target === undefined ? 'unresolved' : 'ok']).toEqual([ref, 'ok']);
  }
});
