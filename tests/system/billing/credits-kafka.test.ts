import { randomUUID } from 'node:crypto';
import { buildEnvelope, type EventBus } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import type { Envelope } from '@earshot/contracts';
import { billingService } from '@earshot/billing-service';
import { tenantService } from '@earshot/tenant-service';
import { describeKafka, testKafkaBus, unique } from '../../../packages/kit/test/kafka-support';

// The batch path of charging (as scripts/bench-credits.ts drives it) with the replies coming
// through Kafka: concurrent publishers, the tenant's consumer charging what a partition hands it a
// batch per transaction, a producer's retry writing some replies twice; the balance ends exact.
let stack: TestStack;
let bus: EventBus | undefined;
beforeAll(async () => {
  stack = await createTestStack([tenantService, billingService], {
    MAIL_WORKER: 'false',
    COMPANY_OPENING_CREDITS: '0',
  });
});
afterAll(async () => {
  await bus?.stop();
  await stack.close();
});

describeKafka('credits charged from Kafka', () => {
  test('every chat reply is charged once, in batches, and the balance is exact', async () => {
    const host = await stack.tokenFor('HOST_ADMIN', null);
    const post = async (url: string, payload: Record<string, unknown>) => {
      const res = await stack.as(host, { method: 'POST', url, payload });
      expect(res.statusCode).toBe(201);
      return res.json() as { _id: string };
    };
    const { _id: companyId } = await post('/api/companies', {
      name: 'Kafka Charges',
      code: 'KAFKA',
      domain: 'kafka-charges',
    });
    await post(`/api/companies/${companyId}/credits`, { amount: 1_000, reason: 'Opening' });
    const modelId = randomUUID();
    // 1,234 input tokens at 0.7 per 1,000 and 321 output tokens at 2.1 per 1,000: 1.5379 credits a reply.
    await post('/api/pricing', { modelId, unit: 'input_1k', credits: 0.7 });
    await post('/api/pricing', { modelId, unit: 'output_1k', credits: 2.1 });
    const reply = (): Envelope =>
      buildEnvelope({
        type: 'chat_reply.finished',
        companyId,
        actor: { type: 'user', id: randomUUID(), role: 'USER' },
        data: {
          conversationId: randomUUID(),
          messageId: randomUUID(),
          model: 'kafka-model',
          providerId: randomUUID(),
          builtIn: false,
          status: 'complete',
          usage: { promptTokens: 1234, completionTokens: 321, totalTokens: 1555 },
          modelId,
        },
      });

    const topic = unique('chat');
    const consumer = stack.running.consumers.get('billing')!;
    const batches: number[] = [];
    const subscription = consumer.subscription();
    bus = testKafkaBus();
    await bus.subscribe({
      ...subscription,
      group: unique('tenant'),
      topics: [topic],
      handleBatch: async (envelopes) => {
        batches.push(envelopes.length);
        await subscription.handleBatch!(envelopes);
      },
    });
    await bus.start();

    const replies = Array.from({ length: 200 }, reply);
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        for (let i = next++; i < replies.length; i = next++)
          await bus!.publish([{ topic, key: companyId, envelope: replies[i]! }]);
      }),
    );
    await bus.publish(replies.slice(0, 20).map((envelope) => ({ topic, key: companyId, envelope })));

    const charged = async () =>
      (
        await stack.database.query<{ n: number }>(
          `select count(distinct event_id)::int as n from billing.credit_ledger where company_id = $1 and kind = 'charge'`,
          [companyId],
        )
      )[0]!.n;
    while ((await charged()) < replies.length) await new Promise((resolve) => setTimeout(resolve, 100));
    const [account] = await stack.database.query<{ balance: string }>(
      'select balance::text from billing.credit_accounts where company_id = $1',
      [companyId],
    );
    // 1,000 − 200 × 1.5379 = 692.42, charged once each (the twice-written 20 included).
    expect(Number(account!.balance)).toBeCloseTo(692.42, 4);
    expect(await charged()).toBe(replies.length);
    expect(Math.max(...batches)).toBeGreaterThan(1);
  }, 90_000);
});
