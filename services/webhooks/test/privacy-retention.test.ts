import { randomUUID } from 'node:crypto';
import { text } from 'node:stream/consumers';
import type { WebhookCreated, WebhookDeliveryPage } from '@earshot/contracts';
import { createStorage, type StorageConfig } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { webhooksService, workerOf } from '../src';
import { deliver, envelope } from './helpers';

// A person's deliveries in the privacy jobs, and the delivery log's retention. The endpoint points
// at a closed loopback port: deliveries are recorded whatever becomes of them.
let stack: TestStack;
const companyA = randomUUID();
const companyB = randomUUID();
const ann = randomUUID();
const bob = randomUUID();
const tokens = { a: '', b: '' };
const endpoints = { a: '', b: '' };

const userCreated = (companyId: string, id: string, firstName: string) =>
  envelope('user.created', companyId, {
    id,
    before: null,
    after: { firstName, lastName: 'Person', email: `${firstName}@x.test`, role: 'USER', companyId, status: 'active' },
  });
const uploadedBy = (companyId: string, userId: string) =>
  envelope('file.uploaded', companyId, {
    id: randomUUID(),
    storageKey: 'k',
    originalName: 'call.wav',
    mimeType: 'audio/wav',
    size: 1,
    clientId: null,
    uploadedBy: userId,
  });

async function endpoint(token: string): Promise<string> {
  const res = await stack.as(token, {
    method: 'POST',
    url: '/api/webhooks',
    payload: { url: 'http://127.0.0.1:9/hook', events: ['user.created', 'file.uploaded'] },
  });
  expect(res.statusCode).toBe(201);
  return (res.json() as WebhookCreated).id;
}

const log = async (token: string, id: string) =>
  (await stack.as(token, { method: 'GET', url: `/api/webhooks/${id}/deliveries` })).json() as WebhookDeliveryPage;

beforeAll(async () => {
  // A retry an hour away: the first failed attempt is the only one during the test.
  stack = await createTestStack([webhooksService], { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_SCALE: '100' });
  tokens.a = await stack.tokenFor('ADMIN', companyA);
  tokens.b = await stack.tokenFor('ADMIN', companyB);
  endpoints.a = await endpoint(tokens.a);
  endpoints.b = await endpoint(tokens.b);
  await deliver(
    stack,
    userCreated(companyA, ann, 'Ann'),
    uploadedBy(companyA, ann),
    userCreated(companyA, bob, 'Bob'),
    // The same person's id in another company's log is not this company's to export or erase.
    uploadedBy(companyB, ann),
  );
  await workerOf(stack.running.contexts.get('webhooks')! as never).idle();
}, 60_000);
afterAll(() => stack.close());

test("a person's export holds the deliveries that name them, in their company only", async () => {
  const jobId = randomUUID();
  await deliver(stack, envelope('privacy.export_requested', companyA, { jobId, subject: { kind: 'user', id: ann } }));
  const storage = createStorage(stack.config as unknown as StorageConfig);
  const part = JSON.parse(await text(await storage.get(`privacy/${jobId}/webhooks.json`)));
  expect(part.deliveries.map((d: { eventType: string }) => d.eventType).sort()).toEqual([
    'file.uploaded',
    'user.created',
  ]);
  expect(part.deliveries.every((d: { body: { data: unknown } }) => JSON.stringify(d.body).includes(ann))).toBe(true);
  expect(JSON.stringify(part)).not.toContain('Bob');
});

test('erasing a person removes every delivery naming them, and no other', async () => {
  expect((await log(tokens.a, endpoints.a)).total).toBe(3);
  const jobId = randomUUID();
  await deliver(
    stack,
    envelope('privacy.erase_requested', companyA, { jobId, subject: { kind: 'user', id: ann }, recordings: 'keep' }),
  );
  const left = await log(tokens.a, endpoints.a);
  expect(left.items.map((d) => d.eventType)).toEqual(['user.created']);
  expect(JSON.stringify(left)).not.toContain(ann);
  expect((await log(tokens.b, endpoints.b)).total).toBe(1);
  const [reported] = await stack.database.query<{ counts: Record<string, number> }>(
    `select envelope->'data'->'counts' as counts from webhooks.outbox
      where envelope->>'type' = 'privacy.part_erased' and envelope->'data'->>'jobId' = $1`,
    [jobId],
  );
  expect(reported!.counts).toEqual({ deliveriesDeleted: 2 });
});

test('retention removes finished deliveries past WEBHOOK_DELIVERY_RETENTION_DAYS and keeps pending ones', async () => {
  const worker = workerOf(stack.running.contexts.get('webhooks')! as never);
  // Bob's delivery failed once and waits for its retry (pending); company B's failed for good.
  await stack.database.query(`update webhooks.deliveries set status = 'failed' where endpoint_id = $1`, [endpoints.b]);
  await stack.database.query(`update webhooks.deliveries set created_at = now() - interval '31 days'`);
  expect(await worker.purge()).toBe(1);
  expect((await log(tokens.b, endpoints.b)).total).toBe(0);
  expect((await log(tokens.a, endpoints.a)).items.map((d) => d.status)).toEqual(['pending']);
  await stack.database.query(`update webhooks.deliveries set status = 'succeeded'`);
  // Within the retention, a finished delivery stays.
  expect(await worker.purge(new Date(Date.now() - 2 * 86_400_000))).toBe(0);
  expect(await worker.purge()).toBe(1);
  expect((await log(tokens.a, endpoints.a)).total).toBe(0);
});
