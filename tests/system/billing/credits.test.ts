import { topicOf, type Actor, type Envelope, type EventType } from '@earshot/contracts';
import { buildEnvelope, creditGateFor, HttpError, type NewEvent as KitEvent, type ServiceContext } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { messagingService } from '@earshot/messaging-service';
import { billingService } from '@earshot/billing-service';
import { tenantService } from '@earshot/tenant-service';
import { CreditService } from '../../../services/billing/src/services/credits/credits';

// Pricing, the ledger and balance, charging from usage events, reservations, the credit gate,
// budgets and caps with their alerts: the tenant service, fed the usage events the other services
// emit, with the messaging service that turns its threshold events into notifications and mail.
let stack: TestStack;
let host: string;
let ctx: ServiceContext;
let credits: CreditService;
const seen: Envelope[] = [];

beforeAll(async () => {
  stack = await createTestStack([tenantService, billingService, messagingService], {
    COMPANY_OPENING_CREDITS: '0',
    MAIL_WORKER: 'false',
  });
  await stack.bus.subscribe({
    group: 'test-observer',
    topics: ['earshot.tenant'],
    handle: async (e) => void seen.push(e),
  });
  host = await stack.tokenFor('HOST_ADMIN', null);
  ctx = stack.running.contexts.get('billing')!;
  credits = new CreditService(ctx);
}, 60_000);
afterAll(async () => stack.close());

let counter = 0;
async function newCompany(): Promise<string> {
  counter += 1;
  const res = await stack.as(host, {
    method: 'POST',
    url: '/api/companies',
    payload: { name: `Credits ${counter}`, code: `CR-${counter}`, domain: `credits-${counter}` },
  });
  expect(res.statusCode).toBe(201);
  return (res.json() as { _id: string })._id;
}

const grant = (companyId: string, amount: number, reason = 'Top-up') =>
  stack.as(host, { method: 'POST', url: `/api/companies/${companyId}/credits`, payload: { amount, reason } });

async function account(companyId: string): Promise<{
  balance: number;
  reserved: number;
  ledger: {
    items: {
      kind: string;
      amount: number;
      model: string | null;
      feature: string | null;
      eventId: string | null;
      userId: string | null;
    }[];
    total: number;
  };
}> {
  const res = await stack.as(host, { method: 'GET', url: `/api/companies/${companyId}/credits?pageSize=100` });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const price = (body: Record<string, unknown>) => stack.as(host, { method: 'POST', url: '/api/pricing', payload: body });

const person = (id: string): Actor => ({ type: 'user', id, role: 'USER' });

/** An event as its service would write it; `occurredAt` may be set (when the work happened). */
function event(
  type: EventType,
  companyId: string | null,
  data: Record<string, unknown>,
  options: { actor?: Actor; occurredAt?: string } = {},
): Envelope {
  const envelope = buildEnvelope({
    type,
    companyId,
    actor: options.actor ?? { type: 'system', id: null },
    data,
  } as KitEvent);
  return options.occurredAt ? { ...envelope, occurredAt: options.occurredAt } : envelope;
}

async function deliver(...envelopes: Envelope[]): Promise<void> {
  await stack.bus.publish(
    envelopes.map((envelope) => ({
      topic: topicOf(envelope.type as EventType),
      key: envelope.companyId ?? '',
      envelope,
    })),
  );
  await stack.settle();
}

const reply = (
  companyId: string,
  modelId: string | null,
  usage: { promptTokens: number; completionTokens: number } | null,
  extra: Record<string, unknown> = {},
  actor = person(crypto.randomUUID()),
) =>
  event(
    'chat_reply.finished',
    companyId,
    {
      conversationId: crypto.randomUUID(),
      messageId: crypto.randomUUID(),
      model: 'gpt-test',
      providerId: crypto.randomUUID(),
      builtIn: false,
      status: 'complete',
      usage: usage && { ...usage, totalTokens: usage.promptTokens + usage.completionTokens },
      modelId,
      ...extra,
    },
    { actor },
  );

/** A person of the company, as the auth service's events tell the tenant service. */
async function member(
  companyId: string,
  role: 'ADMIN' | 'USER',
  monthlyCredits: number | null = null,
): Promise<string> {
  const id = crypto.randomUUID();
  await deliver(
    event('user.created', companyId, {
      id,
      before: null,
      after: {
        email: `${id.slice(0, 8)}@credits.test`,
        firstName: role,
        lastName: 'Person',
        role,
        companyId,
        status: 'active',
        monthlyCredits,
      },
    }),
  );
  return id;
}

describe('prices', () => {
  test('the platform administrator sets prices; every signed-in role reads those in force, with the model’s name', async () => {
    const modelId = crypto.randomUUID();
    await deliver(
      event('ai_model.created', null, {
        id: modelId,
        before: null,
        after: {
          providerId: crypto.randomUUID(),
          name: 'gpt-4o-mini',
          label: 'GPT-4o mini',
          purpose: 'chat',
          isDefault: false,
          contextSize: null,
          enabled: true,
        },
      }),
    );
    const created = await price({ modelId, unit: 'input_1k', credits: 0.5 });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      modelId,
      engine: null,
      modelName: 'GPT-4o mini',
      unit: 'input_1k',
      credits: 0.5,
    });
    const user = await stack.tokenFor('USER', crypto.randomUUID());
    const pricing = (await stack.as(user, { method: 'GET', url: '/api/pricing' })).json() as {
      currency: string;
      prices: { modelId: string | null; engine: string | null; unit: string; credits: number }[];
    };
    expect(pricing.prices).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ modelId, unit: 'input_1k', credits: 0.5 }),
        // The offline engine is priced (free) out of the box.
        expect.objectContaining({ engine: 'pocketsphinx', unit: 'audio_minute', credits: 0 }),
      ]),
    );
    expect(
      (
        await stack.as(user, {
          method: 'POST',
          url: '/api/pricing',
          payload: { modelId, unit: 'input_1k', credits: 1 },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await stack.as(await stack.tokenFor('ADMIN', crypto.randomUUID()), {
          method: 'GET',
          url: '/api/pricing/history',
        })
      ).statusCode,
    ).toBe(403);
  });

  test('a future price is in the history, not yet in force; a past date, two targets or five decimals are refused naming the field', async () => {
    const modelId = crypto.randomUUID();
    await price({ modelId, unit: 'output_1k', credits: 2 });
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    expect((await price({ modelId, unit: 'output_1k', credits: 3, effectiveFrom: tomorrow })).statusCode).toBe(201);
    const inForce = (
      (await stack.as(host, { method: 'GET', url: '/api/pricing' })).json() as {
        prices: { modelId: string; credits: number }[];
      }
    ).prices.filter((p) => p.modelId === modelId);
    expect(inForce.map((p) => p.credits)).toEqual([2]);
    const history = (
      await stack.as(host, { method: 'GET', url: `/api/pricing/history?modelId=${modelId}` })
    ).json() as { credits: number; effectiveFrom: string }[];
    expect(history.map((p) => p.credits)).toEqual([3, 2]);

    const past = await price({ modelId, unit: 'output_1k', credits: 1, effectiveFrom: '2020-01-01T00:00:00Z' });
    expect(past.statusCode).toBe(400);
    expect(past.json().details).toEqual([expect.objectContaining({ field: 'body.effectiveFrom' })]);
    const both = await price({ modelId, engine: 'openai', unit: 'output_1k', credits: 1 });
    expect(both.statusCode).toBe(400);
    expect(JSON.stringify(both.json().details)).toContain('modelId');
    const fine = await price({ modelId, unit: 'output_1k', credits: 1.00001 });
    expect(fine.statusCode).toBe(400);
    expect(JSON.stringify(fine.json().details)).toContain('body.credits');
  });

  test('the display currency and its rate', async () => {
    const res = await stack.as(host, {
      method: 'PUT',
      url: '/api/pricing/currency',
      payload: { currency: 'usd', creditRate: 0.012 },
    });
    expect(res.json()).toEqual({ currency: 'USD', creditRate: 0.012 });
    expect((await stack.as(host, { method: 'GET', url: '/api/pricing' })).json()).toMatchObject({
      currency: 'USD',
      creditRate: 0.012,
    });
    expect(
      (
        await stack.as(host, {
          method: 'PUT',
          url: '/api/pricing/currency',
          payload: { currency: 'EURO', creditRate: 1 },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await stack.as(host, {
          method: 'PUT',
          url: '/api/pricing/currency',
          payload: { currency: 'EUR', creditRate: 0 },
        })
      ).statusCode,
    ).toBe(400);
    await stack.as(host, {
      method: 'PUT',
      url: '/api/pricing/currency',
      payload: { currency: 'EUR', creditRate: 0.01 },
    });
  });
});

describe('grants and adjustments', () => {
  test('a grant adds, a negative amount is an adjustment; both audited; the balance shows on the company', async () => {
    const companyId = await newCompany();
    const granted = await grant(companyId, 1000, 'Welcome credits');
    expect(granted.statusCode).toBe(201);
    expect(granted.json()).toMatchObject({
      balance: 1000,
      reserved: 0,
      entry: { kind: 'grant', amount: 1000, reason: 'Welcome credits', eventId: null },
    });
    const adjusted = await grant(companyId, -250.5, 'Refund of a test');
    expect(adjusted.json()).toMatchObject({ balance: 749.5, entry: { kind: 'adjustment', amount: -250.5 } });
    await stack.settle();
    expect(
      seen
        .filter((e) => e.companyId === companyId && e.type.startsWith('credits.'))
        .map((e) => [e.type, e.data.amount, e.data.reason]),
    ).toEqual([
      ['credits.granted', 1000, 'Welcome credits'],
      ['credits.adjusted', -250.5, 'Refund of a test'],
    ]);
    expect((await stack.as(host, { method: 'GET', url: `/api/companies/${companyId}` })).json().balance).toBe(749.5);
    const list = (await stack.as(host, { method: 'GET', url: '/api/companies?pageSize=100' })).json() as {
      items: { _id: string; balance: number }[];
    };
    expect(list.items.find((c) => c._id === companyId)?.balance).toBe(749.5);
    const view = await account(companyId);
    expect(view.ledger.items.map((e) => e.kind)).toEqual(['adjustment', 'grant']);
  });

  test('a reason is required, 0 and five decimals are refused; only the platform administrator grants', async () => {
    const companyId = await newCompany();
    for (const payload of [
      { amount: 10 },
      { amount: 10, reason: '' },
      { amount: 0, reason: 'x' },
      { amount: 0.00001, reason: 'x' },
      { amount: 10, reason: 'x'.repeat(501) },
    ]) {
      const res = await stack.as(host, { method: 'POST', url: `/api/companies/${companyId}/credits`, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().details[0].field).toMatch(/^body\.(amount|reason)$/);
    }
    const admin = await stack.tokenFor('ADMIN', companyId);
    expect(
      (
        await stack.as(admin, {
          method: 'POST',
          url: `/api/companies/${companyId}/credits`,
          payload: { amount: 10, reason: 'self' },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await stack.as(admin, {
          method: 'PUT',
          url: `/api/companies/${companyId}/credits/settings`,
          payload: { monthlyBudget: 1, monthlyGrant: null },
        })
      ).statusCode,
    ).toBe(403);
    expect((await account(companyId)).ledger.total).toBe(0);
  });

  test('a company administrator reads their own company’s credits only; USER and CALLER are refused', async () => {
    const [own, other] = [await newCompany(), await newCompany()];
    await grant(own, 5);
    const admin = await stack.tokenFor('ADMIN', own);
    expect((await stack.as(admin, { method: 'GET', url: `/api/companies/${own}/credits` })).json()).toMatchObject({
      balance: 5,
      reserved: 0,
      currency: 'EUR',
      monthlyBudget: null,
      monthlyGrant: null,
      ledger: { total: 1, page: 1 },
    });
    expect((await stack.as(admin, { method: 'GET', url: `/api/companies/${other}/credits` })).statusCode).toBe(404);
    for (const role of ['USER', 'CALLER'] as const) {
      expect(
        (await stack.as(await stack.tokenFor(role, own), { method: 'GET', url: `/api/companies/${own}/credits` }))
          .statusCode,
      ).toBe(403);
    }
    expect(
      (await stack.as(host, { method: 'GET', url: `/api/companies/${crypto.randomUUID()}/credits` })).statusCode,
    ).toBe(404);
  });

  test('100 grants at once give the exact balance (the account row is locked by each)', async () => {
    const companyId = await newCompany();
    const answers = await Promise.all(Array.from({ length: 100 }, () => grant(companyId, 1.0001, 'Concurrent')));
    expect(answers.every((r) => r.statusCode === 201)).toBe(true);
    expect((await account(companyId)).balance).toBe(100.01);
    const [sum] = await stack.database.query<{ total: string }>(
      'select sum(amount)::text as total from billing.credit_ledger where company_id = $1',
      [companyId],
    );
    expect(sum!.total).toBe('100.0100');
  });
});

describe('charging from usage events', () => {
  test('a reply is charged per token at the model’s prices, proportionally, to four decimals', async () => {
    const companyId = await newCompany();
    await grant(companyId, 100);
    const modelId = crypto.randomUUID();
    await price({ modelId, unit: 'input_1k', credits: 1 });
    await price({ modelId, unit: 'output_1k', credits: 4 });
    const userId = crypto.randomUUID();
    await deliver(reply(companyId, modelId, { promptTokens: 1234, completionTokens: 500 }, {}, person(userId)));
    const view = await account(companyId);
    // 1,234 input tokens at 1 per 1,000 = 1.234; 500 output tokens at 4 per 1,000 = 2.
    expect(view.balance).toBe(96.766);
    const charges = view.ledger.items.filter((e) => e.kind === 'charge');
    expect(charges).toHaveLength(2);
    expect(charges.map((c) => c.amount).sort((a, b) => a - b)).toEqual([-2, -1.234]);
    expect(charges.every((c) => c.feature === 'chat' && c.model === 'gpt-test' && c.userId === userId)).toBe(true);
  });

  test('100 charges at once give the exact balance', async () => {
    const companyId = await newCompany();
    await grant(companyId, 10);
    const modelId = crypto.randomUUID();
    await price({ modelId, unit: 'input_1k', credits: 0.3 });
    await price({ modelId, unit: 'output_1k', credits: 0 });
    const consumer = stack.running.consumers.get('billing')!;
    // Each delivered to the handler at once, as replicas or partitions would.
    await Promise.all(
      Array.from({ length: 100 }, () =>
        consumer.receive(reply(companyId, modelId, { promptTokens: 1000, completionTokens: 7 })),
      ),
    );
    // 100 × 0.3 = 30 spent from 10: work already done is charged in full, below zero.
    const view = await account(companyId);
    expect(view.balance).toBe(-20);
    const [row] = await stack.database.query<{ n: string }>(
      "select count(*)::text as n from billing.credit_ledger where company_id = $1 and kind = 'charge'",
      [companyId],
    );
    expect(row!.n).toBe('200');
  });

  test('the same event delivered twice, or at once, charges once', async () => {
    const companyId = await newCompany();
    await grant(companyId, 10);
    const modelId = crypto.randomUUID();
    await price({ modelId, unit: 'input_1k', credits: 1 });
    const once = reply(companyId, modelId, { promptTokens: 2000, completionTokens: 0 });
    await deliver(once);
    await deliver(once);
    const consumer = stack.running.consumers.get('billing')!;
    const again = reply(companyId, modelId, { promptTokens: 3000, completionTokens: 0 });
    await Promise.all([consumer.receive(again), consumer.receive(again), consumer.receive(again)]);
    // Even past the kit's applied-events ledger, the credit ledger's key refuses a second charge.
    await ctx.transact((tx, emit) =>
      credits.charge(tx, emit, [
        {
          companyId,
          eventId: once.id,
          occurredAt: new Date(),
          feature: 'chat',
          userId: null,
          model: 'x',
          ref: { modelId },
          quantities: [{ unit: 'input_1k', quantity: 2000 }],
        },
      ]),
    );
    expect((await account(companyId)).balance).toBe(5);
  });

  test('replies that arrive together are charged as a batch: exact balances, each person’s spend, each event once', async () => {
    const [first, second] = [await newCompany(), await newCompany()];
    await grant(first, 1000);
    await grant(second, 1000);
    const modelId = crypto.randomUUID();
    await price({ modelId, unit: 'input_1k', credits: 0.3 });
    await price({ modelId, unit: 'output_1k', credits: 1.1 });
    const people = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    // 0.3 + 1.1 × 0.5 = 0.85 credits a reply; 150 to the first company, 60 to the second, over three people.
    const replies = Array.from({ length: 210 }, (_, i) =>
      reply(
        i < 150 ? first : second,
        modelId,
        { promptTokens: 1000, completionTokens: 500 },
        {},
        person(people[i % 3]!),
      ),
    );
    await deliver(...replies, replies[7]!, replies[180]!);
    expect((await account(first)).balance).toBe(872.5);
    expect((await account(second)).balance).toBe(949);
    const spend = await stack.database.query<{ company_id: string; user_id: string; credits: string }>(
      'select company_id, user_id, credits::text from billing.credit_spend where company_id = any($1::uuid[]) order by company_id = $2 desc, user_id',
      [[first, second], first],
    );
    const expected = (companyId: string, replies: number) => [
      { company_id: companyId, user_id: '', credits: (replies * 0.85).toFixed(4) },
      ...[...people]
        .sort()
        .map((userId) => ({ company_id: companyId, user_id: userId, credits: ((replies / 3) * 0.85).toFixed(4) })),
    ];
    expect(spend).toEqual([...expected(first, 150), ...expected(second, 60)]);
    const [row] = await stack.database.query<{ n: string }>(
      "select count(*)::text as n from billing.credit_ledger where company_id = any($1::uuid[]) and kind = 'charge'",
      [[first, second]],
    );
    expect(row!.n).toBe('420');
  });

  test('a price change charges earlier work at the earlier price, later work at the new one', async () => {
    const companyId = await newCompany();
    await grant(companyId, 100);
    const modelId = crypto.randomUUID();
    await price({ modelId, unit: 'output_1k', credits: 1 });
    const nextWeek = Date.now() + 7 * 86_400_000;
    await price({ modelId, unit: 'output_1k', credits: 10, effectiveFrom: new Date(nextWeek).toISOString() });
    const before = reply(companyId, modelId, { promptTokens: 0, completionTokens: 1000 });
    const after = {
      ...reply(companyId, modelId, { promptTokens: 0, completionTokens: 1000 }),
      occurredAt: new Date(nextWeek + 60_000).toISOString(),
    };
    // The later work's event arrives first: each is priced by when it happened, not when it arrived.
    await deliver(after, before);
    const amounts = (await account(companyId)).ledger.items
      .filter((e) => e.kind === 'charge' && e.amount !== 0)
      .map((e) => [e.eventId, e.amount]);
    expect(amounts).toEqual(
      expect.arrayContaining([
        [before.id, -1],
        [after.id, -10],
      ]),
    );
  });

  test('usage with no price, or at 0, is still recorded at 0 credits; the built-in assistant and replies without usage are not charged', async () => {
    const companyId = await newCompany();
    await grant(companyId, 10);
    const unpriced = crypto.randomUUID();
    await deliver(
      reply(companyId, unpriced, { promptTokens: 10, completionTokens: 20 }),
      event('chat_reply.finished', companyId, {
        conversationId: crypto.randomUUID(),
        messageId: crypto.randomUUID(),
        model: 'built-in',
        providerId: null,
        builtIn: true,
        status: 'complete',
        usage: null,
      }),
      reply(companyId, unpriced, null, { status: 'failed' }),
    );
    const view = await account(companyId);
    expect(view.balance).toBe(10);
    expect(view.ledger.items.filter((e) => e.kind === 'charge').map((e) => e.amount)).toEqual([0, 0]);
    const [row] = await stack.database.query<{ n: string }>(
      "select count(*)::text as n from billing.credit_ledger where company_id = $1 and kind = 'charge' and measured in (10, 20)",
      [companyId],
    );
    expect(row!.n).toBe('2');
  });

  test('custom GPT replies, analyses (failed ones too) and embeddings are metered by feature', async () => {
    const companyId = await newCompany();
    await grant(companyId, 100);
    const modelId = crypto.randomUUID();
    const embedder = crypto.randomUUID();
    await price({ modelId, unit: 'input_1k', credits: 1 });
    await price({ modelId, unit: 'output_1k', credits: 1 });
    await price({ modelId: embedder, unit: 'embedding_1k', credits: 0.01 });
    const outcome = {
      id: crypto.randomUUID(),
      fileId: crypto.randomUUID(),
      promptId: crypto.randomUUID(),
      promptVersion: 1,
      patternId: null,
      model: 'gpt-test',
      modelId,
      usage: { inputTokens: 1000, outputTokens: 1000 },
      durationMs: 10,
      userId: null,
    };
    await deliver(
      reply(companyId, modelId, { promptTokens: 1000, completionTokens: 0 }, { customGptId: crypto.randomUUID() }),
      event('analysis.completed', companyId, outcome),
      event('analysis.failed', companyId, {
        ...outcome,
        id: crypto.randomUUID(),
        usage: { inputTokens: 500, outputTokens: 0 },
        reason: 'invalid answer',
      }),
      event('embeddings.used', companyId, {
        modelId: embedder,
        tokens: 50_000,
        purpose: 'knowledge',
        customGptId: null,
        fileId: null,
      }),
    );
    const byFeature = new Map<string, number>();
    for (const e of (await account(companyId)).ledger.items)
      if (e.kind === 'charge') byFeature.set(e.feature!, (byFeature.get(e.feature!) ?? 0) + e.amount);
    expect(Object.fromEntries(byFeature)).toEqual({ custom_gpt: -1, analysis: -2.5, embeddings: -0.5 });
  });
});

describe('ledger lines an auditor can read', () => {
  interface Line {
    kind: string;
    amount: number;
    unit: string | null;
    quantity: number | null;
    unitPrice: number | null;
    eventId: string | null;
  }
  const linesOf = async (companyId: string, eventId: string): Promise<Line[]> =>
    ((await account(companyId)).ledger.items as unknown as Line[]).filter((e) => e.eventId === eventId);
  /** quantity × unitPrice rounded half up to 4 decimals, worked out here in ten-thousandths, apart from the service's code. */
  const cost = (quantity: number, unitPrice: number) => {
    const product = BigInt(Math.round(quantity * 10_000)) * BigInt(Math.round(unitPrice * 10_000));
    return Number((product + 5000n) / 10_000n) / 10_000;
  };

  /** A company with credits and a model priced per 1,000 input and output tokens. */
  async function pricedCompany(
    credits: number,
    input: number,
    output: number,
  ): Promise<{ companyId: string; modelId: string }> {
    const companyId = await newCompany();
    await grant(companyId, credits);
    const modelId = crypto.randomUUID();
    await price({ modelId, unit: 'input_1k', credits: input });
    await price({ modelId, unit: 'output_1k', credits: output });
    return { companyId, modelId };
  }

  test('a reply is two lines that differ by unit, each quantity × unit price; together they are its cost', async () => {
    const { companyId, modelId } = await pricedCompany(100, 0.7, 2.1);
    const one = reply(companyId, modelId, { promptTokens: 1234, completionTokens: 321 });
    await deliver(one);
    const lines = await linesOf(companyId, one.id);
    // 1.234 thousand input tokens × 0.7 = 0.8638; 0.321 thousand output tokens × 2.1 = 0.6741.
    expect(
      lines
        .map(({ kind, unit, quantity, unitPrice, amount }) => ({ kind, unit, quantity, unitPrice, amount }))
        .sort((x, y) => x.unit!.localeCompare(y.unit!)),
    ).toEqual([
      { kind: 'charge', unit: 'input_1k', quantity: 1.234, unitPrice: 0.7, amount: -0.8638 },
      { kind: 'charge', unit: 'output_1k', quantity: 0.321, unitPrice: 2.1, amount: -0.6741 },
    ]);
    expect(new Set(lines.map((l) => l.unit)).size).toBe(2);
    // The reply's cost, 1.5379, is what the balance lost.
    expect((await account(companyId)).balance).toBe(98.4621);
  });

  test('rounding: each line rounds half up to 4 decimals, and a reply costs the sum of its rounded lines', async () => {
    const { companyId, modelId } = await pricedCompany(100, 0.0015, 0.0001);
    const one = reply(companyId, modelId, { promptTokens: 333, completionTokens: 1 });
    await deliver(one);
    const lines = await linesOf(companyId, one.id);
    // 0.333 × 0.0015 = 0.0004995 → 0.0005 (half up); 0.001 × 0.0001 = 0.0000001 → 0.
    expect(Object.fromEntries(lines.map((l) => [l.unit, l.amount]))).toEqual({ input_1k: -0.0005, output_1k: 0 });
    expect((await account(companyId)).balance).toBe(99.9995);
  });

  test('replies charged as a batch: every line is quantity × unit price, and each reply’s lines add up to its cost', async () => {
    const { companyId, modelId } = await pricedCompany(10_000, 0.0333, 1.2345);
    // Token counts that make every rounding case: a fixed sequence, so a failure can be replayed. 45 replies: 90 lines, one page.
    const replies = Array.from({ length: 45 }, (_, i) =>
      reply(companyId, modelId, { promptTokens: (i * 7919) % 20_000, completionTokens: (i * 104_729) % 3001 }),
    );
    await deliver(...replies);
    const ledger = (await account(companyId)).ledger.items as unknown as Line[];
    let total = 0;
    for (const one of replies) {
      const lines = ledger.filter((e) => e.eventId === one.id);
      const usage = one.data as { usage: { promptTokens: number; completionTokens: number } };
      const expected =
        cost(usage.usage.promptTokens / 1000, 0.0333) + cost(usage.usage.completionTokens / 1000, 1.2345);
      expect(lines.map((l) => l.unit).sort()).toEqual(['input_1k', 'output_1k']);
      for (const line of lines)
        expect([line.unit, Math.abs(line.amount)]).toEqual([line.unit, cost(line.quantity!, line.unitPrice!)]);
      expect(lines.reduce((sum, l) => sum - Math.round(l.amount * 10_000), 0)).toBe(Math.round(expected * 10_000));
      total += Math.round(expected * 10_000);
    }
    expect(Math.round((10_000 - (await account(companyId)).balance) * 10_000)).toBe(total);
  });

  test('a transcription’s lines name minutes of audio: the reservation, the charge, and the release that mirrors the reservation', async () => {
    const companyId = await newCompany();
    await grant(companyId, 10);
    await price({ engine: 'openai', unit: 'audio_minute', credits: 0.5 });
    const fileId = crypto.randomUUID();
    await deliver(
      event('transcript.status_changed', companyId, {
        fileId,
        status: 'pending',
        estimatedSeconds: 120,
        engine: 'openai',
        modelId: null,
      }),
    );
    await deliver(
      event('transcript.completed', companyId, {
        id: crypto.randomUUID(),
        fileId,
        engine: 'openai',
        duration: 7,
        speakers: 1,
        words: 3,
        fileName: 'call.wav',
        parts: 0,
        modelId: null,
      }),
    );
    const items = (await account(companyId)).ledger.items as unknown as Line[];
    const byKind = Object.fromEntries(
      items
        .filter((e) => e.unit)
        .map(({ kind, unit, quantity, unitPrice, amount }) => [kind, { unit, quantity, unitPrice, amount }]),
    );
    // 7 s are 0.1167 minute (to 4 decimals) × 0.5 = 0.05835 → 0.0584.
    expect(byKind).toEqual({
      reservation: { unit: 'audio_minute', quantity: 2, unitPrice: 0.5, amount: -1 },
      charge: { unit: 'audio_minute', quantity: 0.1167, unitPrice: 0.5, amount: -0.0584 },
      release: { unit: 'audio_minute', quantity: 2, unitPrice: 0.5, amount: 1 },
    });
    expect((await account(companyId)).balance).toBe(9.9416);
  });

  test('grants and adjustments name no unit', async () => {
    const companyId = await newCompany();
    await grant(companyId, 5);
    const [entry] = (await account(companyId)).ledger.items as unknown as Line[];
    expect(entry).toMatchObject({ kind: 'grant', unit: null, quantity: null, unitPrice: null });
  });
});

describe('reservations', () => {
  const queued = (companyId: string, fileId: string, seconds: number) =>
    event(
      'transcript.status_changed',
      companyId,
      { fileId, status: 'pending', estimatedSeconds: seconds, engine: 'openai', modelId: null },
      { actor: person(crypto.randomUUID()) },
    );

  test('a queued transcription reserves its estimate; completion charges the real seconds and releases it', async () => {
    const companyId = await newCompany();
    await grant(companyId, 10);
    await price({ engine: 'openai', unit: 'audio_minute', credits: 1 });
    const fileId = crypto.randomUUID();
    await deliver(queued(companyId, fileId, 120));
    expect(await account(companyId)).toMatchObject({ balance: 8, reserved: 2 });
    // Queued again (a retry): still one reservation.
    await deliver(queued(companyId, fileId, 120));
    expect(await account(companyId)).toMatchObject({ balance: 8, reserved: 2 });
    await deliver(
      event('transcript.completed', companyId, {
        id: crypto.randomUUID(),
        fileId,
        engine: 'openai',
        duration: 90,
        speakers: 1,
        words: 10,
        fileName: 'call.wav',
        parts: 0,
        modelId: null,
      }),
    );
    const view = await account(companyId);
    expect(view).toMatchObject({ balance: 8.5, reserved: 0 });
    expect(view.ledger.items.map((e) => [e.kind, e.amount])).toEqual([
      ['release', 2],
      ['charge', -1.5],
      ['reservation', -2],
      ['grant', 10],
    ]);
  });

  test('a transcription queued and completed among replies in one delivery reserves, then settles, in that order', async () => {
    const companyId = await newCompany();
    await grant(companyId, 10);
    await price({ engine: 'openai', unit: 'audio_minute', credits: 1 });
    const modelId = crypto.randomUUID();
    await price({ modelId, unit: 'input_1k', credits: 1 });
    const fileId = crypto.randomUUID();
    const spend = () => reply(companyId, modelId, { promptTokens: 500, completionTokens: 0 });
    await deliver(
      spend(),
      queued(companyId, fileId, 120),
      spend(),
      spend(),
      event('transcript.completed', companyId, {
        id: crypto.randomUUID(),
        fileId,
        engine: 'openai',
        duration: 60,
        speakers: 1,
        words: 10,
        fileName: 'call.wav',
        parts: 0,
        modelId: null,
      }),
      spend(),
    );
    const view = await account(companyId);
    expect(view).toMatchObject({ balance: 7, reserved: 0 });
    const kinds = view.ledger.items.map((e) => e.kind).reverse();
    expect(kinds.indexOf('reservation')).toBeLessThan(kinds.indexOf('release'));
    // Two units per reply (input, and output at no price), one for the transcription.
    expect(kinds.filter((k) => k === 'charge')).toHaveLength(9);
  });

  test('a failed transcription releases its reservation', async () => {
    const companyId = await newCompany();
    await grant(companyId, 10);
    await price({ engine: 'openai', unit: 'audio_minute', credits: 1 });
    const fileId = crypto.randomUUID();
    await deliver(queued(companyId, fileId, 600));
    expect(await account(companyId)).toMatchObject({ balance: 0, reserved: 10 });
    await deliver(event('transcript.status_changed', companyId, { fileId, status: 'failed', reason: 'no speech' }));
    expect(await account(companyId)).toMatchObject({ balance: 10, reserved: 0 });
    const [row] = await stack.database.query<{ state: string }>(
      'select state from billing.credit_reservations where subject = $1',
      [fileId],
    );
    expect(row!.state).toBe('released');
  });
});

describe('the credit gate', () => {
  const expectRefusal = async (promise: Promise<void>, status: number, code: string) => {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ statusCode: status, code });
  };

  test('in-process: refused with no credits, at the person’s cap and for an unpriced model; allowed otherwise', async () => {
    const gate = creditGateFor(stack.database, {});
    const companyId = await newCompany();
    const modelId = crypto.randomUUID();
    await price({ modelId, unit: 'input_1k', credits: 1 });
    const ask = (extra: Record<string, unknown> = {}) =>
      gate.assertCanSpend({ companyId, userId: null, feature: 'chat', ...extra });
    await expectRefusal(ask(), 402, 'CREDITS_EXHAUSTED');
    await grant(companyId, 5);
    await expect(ask({ modelId })).resolves.toBeUndefined();
    await expect(ask({ feature: 'transcription', engine: 'pocketsphinx' })).resolves.toBeUndefined();
    await expectRefusal(ask({ modelId: crypto.randomUUID() }), 409, 'MODEL_NOT_PRICED');
    await expectRefusal(ask({ feature: 'transcription', engine: 'some-engine' }), 409, 'MODEL_NOT_PRICED');

    const capped = await member(companyId, 'USER', 2);
    await expect(ask({ userId: capped, modelId })).resolves.toBeUndefined();
    await deliver(reply(companyId, modelId, { promptTokens: 2000, completionTokens: 0 }, {}, person(capped)));
    await expectRefusal(ask({ userId: capped, modelId }), 402, 'USER_CAP_REACHED');
    // Others of the company go on: 3 credits are left.
    await expect(ask({ userId: await member(companyId, 'USER'), modelId })).resolves.toBeUndefined();
    // Spent down to 0: nobody starts new work.
    await deliver(reply(companyId, modelId, { promptTokens: 3000, completionTokens: 0 }));
    await expectRefusal(ask(), 402, 'CREDITS_EXHAUSTED');
  });

  test('a monthly budget used up stops new work as well as the balance would', async () => {
    const gate = creditGateFor(stack.database, {});
    const companyId = await newCompany();
    await grant(companyId, 100);
    const modelId = crypto.randomUUID();
    await price({ modelId, unit: 'input_1k', credits: 1 });
    await stack.as(host, {
      method: 'PUT',
      url: `/api/companies/${companyId}/credits/settings`,
      payload: { monthlyBudget: 3, monthlyGrant: null },
    });
    await deliver(reply(companyId, modelId, { promptTokens: 3000, completionTokens: 0 }));
    await expectRefusal(gate.assertCanSpend({ companyId, userId: null, feature: 'chat' }), 402, 'CREDITS_EXHAUSTED');
  });
});

describe('budgets, caps and alerts', () => {
  const settings = (companyId: string, body: Record<string, unknown>) =>
    stack.as(host, { method: 'PUT', url: `/api/companies/${companyId}/credits/settings`, payload: body });
  const notificationsOf = async (userId: string, companyId: string) =>
    (
      await stack.as(await stack.tokenFor('ADMIN', companyId, userId), { method: 'GET', url: '/api/notifications' })
    ).json() as {
      items: { _id: string; kind: string; title: string; body: string; readAt: string | null }[];
      unread: number;
      total: number;
    };
  const mails = async (companyId: string) =>
    await stack.database.query<{ type: string; to_address: string }>(
      'select type, to_address from messaging.mail_messages where company_id = $1 order by created_at, type',
      [companyId],
    );

  test('80 % and 100 % of the monthly budget alert the ADMINs once each per month (in-app and by mail)', async () => {
    const companyId = await newCompany();
    const admin = await member(companyId, 'ADMIN');
    const user = await member(companyId, 'USER');
    await grant(companyId, 1000);
    const modelId = crypto.randomUUID();
    await price({ modelId, unit: 'input_1k', credits: 1 });
    expect((await settings(companyId, { monthlyBudget: 10, monthlyGrant: null })).json()).toEqual({
      monthlyBudget: 10,
      monthlyGrant: null,
    });
    const spend = (tokens: number) =>
      deliver(reply(companyId, modelId, { promptTokens: tokens, completionTokens: 0 }, {}, person(user)));

    await spend(7000);
    expect((await notificationsOf(admin, companyId)).total).toBe(0);
    await spend(1000);
    await spend(500);
    let inbox = await notificationsOf(admin, companyId);
    expect(inbox.items.map((n) => [n.kind, n.title])).toEqual([
      ['credits_threshold', '80 % of the monthly budget used'],
    ]);
    expect(inbox.items[0]!.body).toContain('8 of its 10-credit budget');
    await spend(1500);
    await spend(1000);
    inbox = await notificationsOf(admin, companyId);
    expect(inbox.items.map((n) => n.title)).toEqual([
      '100 % of the monthly budget used',
      '80 % of the monthly budget used',
    ]);
    expect(inbox.unread).toBe(2);
    // The USER is not told of the company's budget.
    expect((await notificationsOf(user, companyId)).total).toBe(0);
    expect((await mails(companyId)).map((m) => m.type)).toEqual(['credits_low', 'budget_reached']);
    await stack.settle();
    expect(
      seen
        .filter((e) => e.type === 'credits.threshold_reached' && e.companyId === companyId)
        .map((e) => e.data.threshold),
    ).toEqual([80, 100]);

    // Next month (the month's spend and alerts moved back a month): the thresholds alert again.
    await stack.database.query("update billing.credit_spend set month = '2000-01' where company_id = $1", [companyId]);
    await stack.database.query("update billing.credit_alerts set month = '2000-01' where company_id = $1", [companyId]);
    await spend(8000);
    expect((await notificationsOf(admin, companyId)).items.map((n) => n.title)).toEqual([
      '80 % of the monthly budget used',
      '100 % of the monthly budget used',
      '80 % of the monthly budget used',
    ]);
  });

  test('a person’s cap alerts them and the ADMINs, in the company’s language', async () => {
    const companyId = await newCompany();
    await stack.as(host, { method: 'PUT', url: `/api/companies/${companyId}`, payload: { language: 'fr' } });
    const admin = await member(companyId, 'ADMIN');
    const user = await member(companyId, 'USER', 5);
    await grant(companyId, 1000);
    const modelId = crypto.randomUUID();
    await price({ modelId, unit: 'input_1k', credits: 1 });
    await deliver(reply(companyId, modelId, { promptTokens: 4000, completionTokens: 0 }, {}, person(user)));
    const own = await notificationsOf(user, companyId);
    expect(own.items.map((n) => [n.kind, n.title])).toEqual([
      ['cap_threshold', '80 % de vos crédits mensuels utilisés'],
    ]);
    expect((await notificationsOf(admin, companyId)).items.map((n) => n.kind)).toEqual(['cap_threshold']);
    expect((await mails(companyId)).map((m) => m.type)).toEqual(['credits_low', 'credits_low']);
  });

  test('a batch that passes both thresholds of a cap alerts each once; the next batch alerts nothing more', async () => {
    const companyId = await newCompany();
    const user = await member(companyId, 'USER', 5);
    await grant(companyId, 1000);
    const modelId = crypto.randomUUID();
    await price({ modelId, unit: 'input_1k', credits: 1 });
    const replies = () =>
      Array.from({ length: 6 }, () =>
        reply(companyId, modelId, { promptTokens: 1000, completionTokens: 0 }, {}, person(user)),
      );
    await deliver(...replies());
    expect((await notificationsOf(user, companyId)).items.map((n) => n.kind).sort()).toEqual([
      'cap_threshold',
      'cap_threshold',
    ]);
    await deliver(...replies());
    expect((await notificationsOf(user, companyId)).total).toBe(2);
    expect((await mails(companyId)).map((m) => m.type).sort()).toEqual(['budget_reached', 'credits_low']);
    await stack.settle();
    expect(
      seen
        .filter((e) => e.type === 'credits.threshold_reached' && e.companyId === companyId)
        .map((e) => e.data.threshold),
    ).toEqual([80, 100]);
  });

  test('notifications: own only, read one, read all', async () => {
    const companyId = await newCompany();
    const admin = await member(companyId, 'ADMIN');
    await grant(companyId, 100);
    const modelId = crypto.randomUUID();
    await price({ modelId, unit: 'input_1k', credits: 1 });
    await settings(companyId, { monthlyBudget: 1, monthlyGrant: null });
    await deliver(reply(companyId, modelId, { promptTokens: 1000, completionTokens: 0 }));
    const token = await stack.tokenFor('ADMIN', companyId, admin);
    const inbox = await notificationsOf(admin, companyId);
    expect(inbox.unread).toBe(2);
    const stranger = await stack.tokenFor('ADMIN', companyId);
    expect(
      (await stack.as(stranger, { method: 'POST', url: `/api/notifications/${inbox.items[0]!._id}/read` })).statusCode,
    ).toBe(404);
    expect(
      (await stack.as(token, { method: 'POST', url: `/api/notifications/${inbox.items[0]!._id}/read` })).json(),
    ).toEqual({ unread: 1 });
    expect(
      (await stack.as(token, { method: 'POST', url: `/api/notifications/${inbox.items[0]!._id}/read` })).json(),
    ).toEqual({ unread: 1 });
    expect((await stack.as(token, { method: 'POST', url: '/api/notifications/read-all' })).json()).toEqual({
      unread: 0,
    });
    expect((await notificationsOf(admin, companyId)).items.every((n) => n.readAt !== null)).toBe(true);
  });

  test('the monthly grant is applied once a month', async () => {
    const companyId = await newCompany();
    expect((await settings(companyId, { monthlyBudget: null, monthlyGrant: 250 })).json()).toEqual({
      monthlyBudget: null,
      monthlyGrant: 250,
    });
    // Switched on this month: the first grant is next month's.
    await credits.applyMonthlyGrants();
    expect((await account(companyId)).balance).toBe(0);
    // Last applied long ago (a new month has begun).
    await stack.database.query("update billing.credit_accounts set granted_month = '2000-01' where company_id = $1", [
      companyId,
    ]);
    await Promise.all([credits.applyMonthlyGrants(), credits.applyMonthlyGrants()]);
    await credits.applyMonthlyGrants();
    const view = await account(companyId);
    expect(view.balance).toBe(250);
    expect(view.ledger.items.map((e) => e.kind)).toEqual(['grant']);
    await stack.settle();
    expect(
      seen.filter((e) => e.type === 'credits.granted' && e.companyId === companyId).map((e) => e.data.monthly),
    ).toEqual([true]);
  });
});
