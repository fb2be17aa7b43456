import { randomUUID } from 'node:crypto';
import {
  WEBHOOK_DATA,
  WEBHOOK_EVENT_NAMES,
  type WebhookCreated,
  type WebhookDeliveryPage,
  type WebhookDto,
} from '@earshot/contracts';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { webhooksService } from '../src';
import { clientCreated, deliver, envelope, uploaded } from './helpers';
import { Receiver, verify } from './receiver';

let stack: TestStack;
let receiver: Receiver;
const companyA = randomUUID();
const companyB = randomUUID();
const tokens = { admin: '', user: '', caller: '', adminB: '', host: '' };

beforeAll(async () => {
  // Receivers listen on loopback; retries run at 1/100 of the schedule (5 s → 50 ms, 5 min → 3 s).
  stack = await createTestStack([webhooksService], {
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_RETRY_SCALE: '0.01',
    WEBHOOK_POLL_MS: '20',
  });
  receiver = await Receiver.start();
  tokens.admin = await stack.tokenFor('ADMIN', companyA);
  tokens.user = await stack.tokenFor('USER', companyA);
  tokens.caller = await stack.tokenFor('CALLER', companyA);
  tokens.adminB = await stack.tokenFor('ADMIN', companyB);
  tokens.host = await stack.tokenFor('HOST_ADMIN', null);
}, 60_000);
afterAll(async () => {
  await stack.close();
  await receiver.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (token: string, method: Method, url: string, payload?: unknown) =>
  stack.as(token, {
    method,
    url: `/api${url}`,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

let paths = 0;
/** An endpoint of its own path on the receiver, so each test reads only its deliveries. */
async function endpoint(token: string, events: string[], extra: Record<string, unknown> = {}) {
  const path = `/hook-${++paths}`;
  const res = await call(token, 'POST', '/webhooks', { url: `${receiver.url}${path}`, events, ...extra });
  expect(res.statusCode).toBe(201);
  return { ...(res.json() as WebhookCreated), path };
}

/** A company of its own for a test: its events reach only the endpoints that test made. */
async function company() {
  const id = randomUUID();
  return { id, admin: await stack.tokenFor('ADMIN', id) };
}

const deliveriesOf = async (token: string, id: string) =>
  (await call(token, 'GET', `/webhooks/${id}/deliveries`)).json() as WebhookDeliveryPage;

describe('endpoints', () => {
  test('an ADMIN registers one: the secret is shown once, then never again', async () => {
    const created = await endpoint(tokens.admin, ['transcript.completed', 'file.uploaded'], { description: 'CRM' });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);
    expect(created).toMatchObject({ companyId: companyA, description: 'CRM', enabled: true });

    const one = await call(tokens.admin, 'GET', `/webhooks/${created.id}`);
    expect(one.statusCode).toBe(200);
    const list = await call(tokens.admin, 'GET', '/webhooks');
    for (const body of [one.body, list.body]) {
      expect(body).not.toContain(created.secret);
      expect(body).not.toContain('secret');
    }
    expect((list.json() as { items: WebhookDto[] }).items.map((e) => e.id)).toContain(created.id);
    // Stored sealed, not as given.
    const [row] = await stack.database.query<{ secret: string }>(
      'select secret from webhooks.endpoints where id = $1',
      [created.id],
    );
    expect(row!.secret).toMatch(/^v1:/);
    expect(row!.secret).not.toContain(created.secret.slice(6));
  });

  test('changes and deletions are recorded as events for the audit log, without the secret', async () => {
    const seen: { type: string; data: unknown }[] = [];
    await stack.bus.subscribe({
      group: 'test-audit-observer',
      topics: ['earshot.webhooks'],
      handle: async (e) => void seen.push({ type: e.type, data: e.data }),
    });
    const created = await endpoint(tokens.admin, ['task.created']);
    expect((await call(tokens.admin, 'PUT', `/webhooks/${created.id}`, { enabled: false })).statusCode).toBe(200);
    const rotated = await call(tokens.admin, 'POST', `/webhooks/${created.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    expect((await call(tokens.admin, 'DELETE', `/webhooks/${created.id}`)).statusCode).toBe(200);
    expect((await call(tokens.admin, 'GET', `/webhooks/${created.id}`)).statusCode).toBe(404);
    await stack.settle();
    const mine = seen.filter((e) => (e.data as { id: string }).id === created.id);
    expect(mine.map((e) => e.type)).toEqual([
      'webhook_endpoint.created',
      'webhook_endpoint.updated',
      'webhook_endpoint.secret_rotated',
      'webhook_endpoint.deleted',
    ]);
    expect(mine[1]!.data).toMatchObject({ before: { enabled: true }, after: { enabled: false } });
    const text = JSON.stringify(mine);
    expect(text).not.toContain(created.secret);
    expect(text).not.toContain((rotated.json() as { secret: string }).secret);
  });

  test('bad addresses are 400s naming body.url; an unknown event type is a 400 naming it', async () => {
    for (const url of [
      'ftp://example.com/hook',
      'http://user:pass@example.com/hook',
      `https://example.com/${'a'.repeat(2000)}`,
      'not a url',
    ]) {
      const res = await call(tokens.admin, 'POST', '/webhooks', { url, events: ['file.uploaded'] });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('body.url');
    }
    const res = await call(tokens.admin, 'POST', '/webhooks', {
      url: `${receiver.url}/x`,
      events: ['file.uploaded', 'transcript.exploded'],
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('transcript.exploded');
    expect(res.body).toContain('body.events');
  });

  test('a company has at most 20 endpoints: the 21st is a 409', async () => {
    const company = randomUUID();
    const admin = await stack.tokenFor('ADMIN', company);
    for (let i = 0; i < 20; i++) await endpoint(admin, ['file.uploaded']);
    const res = await call(admin, 'POST', '/webhooks', { url: `${receiver.url}/21`, events: ['file.uploaded'] });
    expect(res.statusCode).toBe(409);
  });

  test('USER and CALLER are refused; another company sees a 404; the platform administrator names the company', async () => {
    const created = await endpoint(tokens.admin, ['file.uploaded']);
    for (const token of [tokens.user, tokens.caller]) {
      expect((await call(token, 'GET', '/webhooks')).statusCode).toBe(403);
      expect((await call(token, 'GET', `/webhooks/${created.id}`)).statusCode).toBe(403);
      expect((await call(token, 'GET', '/webhook-event-types')).statusCode).toBe(403);
    }
    for (const [method, path] of [
      ['GET', ''],
      ['PUT', ''],
      ['DELETE', ''],
      ['POST', '/rotate-secret'],
      ['POST', '/test'],
      ['GET', '/deliveries'],
    ] as const) {
      const res = await call(
        tokens.adminB,
        method,
        `/webhooks/${created.id}${path}`,
        method === 'PUT' ? {} : undefined,
      );
      expect(res.statusCode).toBe(404);
    }
    const listB = (await call(tokens.adminB, 'GET', '/webhooks')).json() as { items: WebhookDto[] };
    expect(listB.items.map((e) => e.id)).not.toContain(created.id);

    expect((await call(tokens.host, 'GET', `/webhooks/${created.id}`)).statusCode).toBe(200);
    const hostList = (await call(tokens.host, 'GET', `/webhooks?companyId=${companyA}`)).json() as {
      items: WebhookDto[];
    };
    expect(hostList.items.map((e) => e.id)).toContain(created.id);
    expect((await call(tokens.host, 'GET', '/webhooks')).statusCode).toBe(400);
    const forB = await call(tokens.host, 'POST', '/webhooks', {
      url: `${receiver.url}/host`,
      events: ['file.uploaded'],
      companyId: companyB,
    });
    expect(forB.statusCode).toBe(201);
    expect((forB.json() as WebhookDto).companyId).toBe(companyB);
    expect(
      (await call(tokens.host, 'POST', '/webhooks', { url: `${receiver.url}/h`, events: ['file.uploaded'] }))
        .statusCode,
    ).toBe(400);
  });

  test('the event types are listed with what they mean', async () => {
    const res = await call(tokens.admin, 'GET', '/webhook-event-types');
    const types = (res.json() as { type: string; description: string }[]).map((t) => t.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'file.uploaded',
        'transcript.completed',
        'transcript.failed',
        'transcript.edited',
        'analysis.completed',
        'task.created',
        'task.updated',
        'client.created',
        'user.created',
      ]),
    );
  });
});

describe('deliveries', () => {
  test('an event arrives signed as Standard Webhooks says, with ids, names and links only', async () => {
    const own = await company();
    const hook = await endpoint(own.admin, ['client.created']);
    const event = clientCreated(own.id, 'Acme Ltd');
    await deliver(stack, event);
    const [got] = await receiver.waitFor(hook.path, 1);
    const payload = verify(hook.secret, got!);
    expect(payload.type).toBe('client.created');
    expect(payload.timestamp).toBe(event.occurredAt);
    expect(payload.data).toMatchObject({
      clientId: (event.data as { id: string }).id,
      name: 'Acme Ltd',
      externalId: 'crm-1',
    });
    expect(payload.data.link).toMatch(/\/client\//);
    // The client's e-mail address is not a webhook's to spread.
    expect(got!.body).not.toContain('x@acme.test');
    expect(got!.headers['content-type']).toBe('application/json');
    expect(Number(got!.headers['webhook-timestamp'])).toBeGreaterThan(Date.now() / 1000 - 60);
    // Another secret does not verify it.
    expect(() => verify(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, got!)).toThrow();
  });

  test('every offered type arrives from its internal event with the documented data, and nothing else', async () => {
    const own = await company();
    const hook = await endpoint(own.admin, [...WEBHOOK_EVENT_NAMES]);
    const fileId = randomUUID();
    const person = randomUUID();
    const taskState = (status: string) => ({
      title: 'Send the quote',
      description: 'Said on the call: the price is 40 euros',
      status,
      assigneeId: person,
      dueDate: '2026-12-02',
      clientId: null,
      link: { fileId, seconds: 12 },
      createdBy: person,
    });
    const segment = { segmentId: 's1', speaker: 'Agent', start: 0, end: 2, text: 'the secret word' };
    const taskId = randomUUID();
    await deliver(
      stack,
      uploaded(own.id),
      envelope('transcript.completed', own.id, {
        id: randomUUID(),
        fileId,
        engine: 'pocketsphinx',
        duration: 12,
        speakers: 2,
        words: 30,
        fileName: 'call.wav',
        parts: 1,
      }),
      // Only a transcription that failed is a webhook, not every status it passes through.
      envelope('transcript.status_changed', own.id, { fileId, status: 'processing' }),
      envelope('transcript.status_changed', own.id, {
        fileId,
        status: 'failed',
        reason: 'The audio could not be decoded',
      }),
      envelope('transcript.segments_changed', own.id, {
        id: randomUUID(),
        fileId,
        editId: randomUUID(),
        kind: 'segment_text',
        part: 0,
        parts: 2,
        removed: [],
        segments: [segment],
      }),
      // The later part of the same edit is not a second webhook.
      envelope('transcript.segments_changed', own.id, {
        id: randomUUID(),
        fileId,
        editId: randomUUID(),
        kind: 'segment_text',
        part: 1,
        parts: 2,
        removed: [],
        segments: [segment],
      }),
      envelope('analysis.completed', own.id, {
        id: randomUUID(),
        fileId,
        promptId: randomUUID(),
        promptVersion: 2,
        patternId: null,
        model: 'gpt-4o-mini',
        usage: { inputTokens: 10, outputTokens: 5 },
        durationMs: 800,
        userId: person,
      }),
      envelope('task.created', own.id, { id: taskId, before: null, after: taskState('todo') }),
      envelope('task.updated', own.id, { id: taskId, before: taskState('todo'), after: taskState('done') }),
      clientCreated(own.id),
      envelope('user.created', own.id, {
        id: person,
        before: null,
        after: { email: 'mari@acme.test', firstName: 'Mari', lastName: 'Tamm', role: 'USER', companyId: own.id },
      }),
    );
    const got = await receiver.waitFor(hook.path, 9);
    await stack.settle();
    const payloads = got.map((r) => verify(hook.secret, r));
    expect(payloads.map((p) => p.type)).toEqual([...WEBHOOK_EVENT_NAMES]);
    for (const payload of payloads) {
      const schema = WEBHOOK_DATA[payload.type as keyof typeof WEBHOOK_DATA];
      expect([payload.type, schema.strict().safeParse(payload.data).success]).toEqual([payload.type, true]);
    }
    const all = got.map((r) => r.body).join('\n');
    // Neither a transcript's words, nor what a task's description quotes, nor an e-mail address.
    for (const secret of ['secret word', '40 euros', 'mari@acme.test', 'x@acme.test'])
      expect(all).not.toContain(secret);
    expect(receiver.on(hook.path)).toHaveLength(9);
  });

  test("another company's endpoint never receives this company's events; types not asked for are not sent", async () => {
    const own = await company();
    const mine = await endpoint(own.admin, ['file.uploaded']);
    const theirs = await endpoint(tokens.adminB, ['file.uploaded', 'client.created']);
    const unasked = await endpoint(own.admin, ['client.created']);
    await deliver(stack, uploaded(own.id, 'a.wav'));
    await receiver.waitFor(mine.path, 1);
    await deliver(stack, uploaded(companyB, 'b.wav'));
    const [b] = await receiver.waitFor(theirs.path, 1);
    expect(verify(theirs.secret, b!).data.fileName).toBe('b.wav');
    expect(receiver.on(theirs.path)).toHaveLength(1);
    expect(receiver.on(unasked.path)).toHaveLength(0);
    expect(receiver.on(mine.path)).toHaveLength(1);
  });

  test('an event handled twice is delivered once', async () => {
    const own = await company();
    const hook = await endpoint(own.admin, ['file.uploaded']);
    const event = uploaded(own.id);
    await deliver(stack, event);
    await deliver(stack, event);
    await receiver.waitFor(hook.path, 1);
    await stack.settle();
    expect((await deliveriesOf(own.admin, hook.id)).total).toBe(1);
  });

  test('a receiver failing twice then answering gets the same webhook-id three times; the log shows three attempts', async () => {
    const own = await company();
    const hook = await endpoint(own.admin, ['file.uploaded']);
    receiver.answerWith(hook.path, 500, { status: 503, body: 'down for maintenance' });
    await deliver(stack, uploaded(own.id));
    const got = await receiver.waitFor(hook.path, 3);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
    got.forEach((r) => verify(hook.secret, r));
    const log = await waitForDelivery(hook.id, (d) => d.status === 'succeeded');
    expect(log).toMatchObject({ eventType: 'file.uploaded', status: 'succeeded', attempts: 3, lastStatusCode: 200 });
    expect(log.nextAttemptAt).toBeNull();
    expect(got[0]!.headers['webhook-id']).toBe(log.id);
  });

  test('deliveries to one endpoint arrive in the order of their events, also across a retry', async () => {
    const own = await company();
    const hook = await endpoint(own.admin, ['file.uploaded']);
    receiver.answerWith(hook.path, 500);
    await deliver(stack, uploaded(own.id, 'first.wav'), uploaded(own.id, 'second.wav'), uploaded(own.id, 'third.wav'));
    const got = await receiver.waitFor(hook.path, 4);
    expect(got.map((r) => verify(hook.secret, r).data.fileName)).toEqual([
      'first.wav',
      'first.wav',
      'second.wav',
      'third.wav',
    ]);
  });

  test('a resend arrives again with the same webhook-id; a test event arrives whatever the types asked for', async () => {
    const own = await company();
    const hook = await endpoint(own.admin, ['file.uploaded']);
    await deliver(stack, uploaded(own.id));
    const [first] = await receiver.waitFor(hook.path, 1);
    const [delivery] = (await deliveriesOf(own.admin, hook.id)).items;
    const res = await call(own.admin, 'POST', `/webhooks/${hook.id}/deliveries/${delivery!.id}/resend`);
    expect(res.statusCode).toBe(202);
    const [, again] = await receiver.waitFor(hook.path, 2);
    expect(again!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(verify(hook.secret, again!).type).toBe('file.uploaded');
    expect(
      (await call(tokens.adminB, 'POST', `/webhooks/${hook.id}/deliveries/${delivery!.id}/resend`)).statusCode,
    ).toBe(404);
    expect((await call(own.admin, 'POST', `/webhooks/${hook.id}/deliveries/${randomUUID()}/resend`)).statusCode).toBe(
      404,
    );

    expect((await call(own.admin, 'POST', `/webhooks/${hook.id}/test`)).statusCode).toBe(202);
    const [, , test] = await receiver.waitFor(hook.path, 3);
    expect(verify(hook.secret, test!)).toMatchObject({ type: 'webhook.test', data: { endpointId: hook.id } });
  });

  test('after a rotation both secrets sign for the grace period; after it only the new one', async () => {
    const own = await company();
    const hook = await endpoint(own.admin, ['file.uploaded']);
    const res = await call(own.admin, 'POST', `/webhooks/${hook.id}/rotate-secret`);
    const { secret } = res.json() as { secret: string };
    expect(secret).not.toBe(hook.secret);
    await deliver(stack, uploaded(own.id));
    const [during] = await receiver.waitFor(hook.path, 1);
    expect(String(during!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(hook.secret, during!).type).toBe('file.uploaded');
    expect(verify(secret, during!).type).toBe('file.uploaded');

    // The grace period over (moved into the past rather than waited for).
    await stack.database.query(
      "update webhooks.endpoints set previous_until = now() - interval '1 second' where id = $1",
      [hook.id],
    );
    await deliver(stack, uploaded(own.id));
    const [, after] = await receiver.waitFor(hook.path, 2);
    expect(verify(secret, after!).type).toBe('file.uploaded');
    expect(() => verify(hook.secret, after!)).toThrow();
  });

  test('a redirect is not followed: it is a failed attempt', async () => {
    const own = await company();
    const hook = await endpoint(own.admin, ['file.uploaded']);
    const target = `/redirected-${paths}`;
    receiver.answerWith(hook.path, { status: 307, headers: { location: `${receiver.url}${target}` } });
    await deliver(stack, uploaded(own.id));
    await receiver.waitFor(hook.path, 2);
    expect(receiver.on(target)).toHaveLength(0);
    const log = await waitForDelivery(hook.id, (d) => d.status === 'succeeded');
    expect(log.attempts).toBe(2);
  });

  test('only the first 4 KB of a huge answer is read; an excerpt of it is kept', async () => {
    const own = await company();
    const hook = await endpoint(own.admin, ['file.uploaded']);
    receiver.answerWith(hook.path, { status: 200, body: 'x'.repeat(5_000_000) });
    await deliver(stack, uploaded(own.id));
    const log = await waitForDelivery(hook.id, (d) => d.status === 'succeeded');
    expect(log).toMatchObject({ attempts: 1, lastStatusCode: 200 });
    expect(log.responseExcerpt).toBe('x'.repeat(500));
  });

  test('after the last retry the delivery is failed; the next one then goes out', async () => {
    const own = await company();
    const hook = await endpoint(own.admin, ['file.uploaded']);
    receiver.answerWith(hook.path, 500);
    // A delivery that already failed seven times (written as the worker would have, not waited
    // for): its next failure is the last.
    const body = JSON.stringify({
      type: 'file.uploaded',
      timestamp: new Date().toISOString(),
      data: { fileName: 'doomed.wav' },
    });
    await stack.database.query(
      `insert into webhooks.deliveries (endpoint_id, company_id, event_id, event_type, body, attempts, round_attempts)
       values ($1, $2, $3, 'file.uploaded', $4, 7, 7)`,
      [hook.id, own.id, randomUUID(), body],
    );
    const log = await waitForDelivery(hook.id, (d) => d.status !== 'pending');
    expect(log).toMatchObject({ status: 'failed', attempts: 8, lastStatusCode: 500, nextAttemptAt: null });
    await deliver(stack, uploaded(own.id, 'next.wav'));
    const got = await receiver.waitFor(hook.path, 2);
    expect(verify(hook.secret, got[1]!).data.fileName).toBe('next.wav');
  });

  test('an endpoint failing every delivery for 5 days is turned off, and says why', async () => {
    const own = await company();
    const seen: { type: string; data: Record<string, unknown> }[] = [];
    await stack.bus.subscribe({
      group: 'test-disabled-observer',
      topics: ['earshot.webhooks'],
      handle: async (e) => void seen.push({ type: e.type, data: e.data }),
    });
    const hook = await endpoint(own.admin, ['file.uploaded']);
    await stack.database.query(
      "update webhooks.endpoints set failing_since = now() - interval '5 days 1 minute' where id = $1",
      [hook.id],
    );
    receiver.answerWith(hook.path, 500);
    await deliver(stack, uploaded(own.id));
    await receiver.waitFor(hook.path, 1);
    const endpointNow = await waitForEndpoint(hook.id, (e) => !e.enabled);
    expect(endpointNow.disabledReason).toMatch(/5 days/);
    await stack.settle();
    expect(seen.find((e) => e.type === 'webhook_endpoint.disabled' && e.data.id === hook.id)?.data).toMatchObject({
      url: `${receiver.url}${hook.path}`,
    });
    // Turned off, nothing more is sent; turned on again, the waiting delivery goes out.
    expect(receiver.on(hook.path)).toHaveLength(1);
    expect((await call(own.admin, 'PUT', `/webhooks/${hook.id}`, { enabled: true })).statusCode).toBe(200);
    await receiver.waitFor(hook.path, 2);
    const again = await waitForEndpoint(hook.id, (e) => e.failingSince === null);
    expect(again).toMatchObject({ enabled: true, disabledReason: null });
  });
});

async function waitForDelivery(
  endpointId: string,
  done: (d: WebhookDeliveryPage['items'][number]) => boolean,
  polls = 1000,
): Promise<WebhookDeliveryPage['items'][number]> {
  let last: WebhookDeliveryPage['items'][number] | undefined;
  for (let i = 0; i < polls; i++) {
    [last] = (await deliveriesOf(tokens.host, endpointId)).items;
    if (last && done(last)) return last;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`delivery never got there: ${JSON.stringify(last)}`);
}

async function waitForEndpoint(id: string, done: (e: WebhookDto) => boolean, polls = 1000): Promise<WebhookDto> {
  let last: WebhookDto | undefined;
  for (let i = 0; i < polls; i++) {
    last = (await call(tokens.host, 'GET', `/webhooks/${id}`)).json() as WebhookDto;
    if (done(last)) return last;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`endpoint never got there: ${JSON.stringify(last)}`);
}
