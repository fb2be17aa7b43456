/**
 * `npm run bench:credits`: figures for the README of services/billing.
 * Charges per second to ONE company — the worst case: every charge moves that company's account
 * row — with BENCH_WRITERS (default 50) concurrent writers, on embedded PostgreSQL (PGlite) and,
 * when DATABASE_URL names a server, on PostgreSQL (a throwaway database, a pool as large as the
 * writers). Each charge is a real `chat_reply.finished` event charged by the billing service's
 * consumer (applied once, priced at the time of the reply, two ledger entries, balance and monthly
 * spend moved, cap alerts checked). Two paths:
 *  - bus: the writers publish their replies on the event bus, as 50 chat processes' outboxes would,
 *    and the consumer charges what has queued up a batch per transaction — how charges arrive in
 *    production (Kafka hands one partition's events to one consumer, in order);
 *  - one transaction each: the writers hand their events to the consumer directly and at once, so
 *    50 transactions queue on the account row's lock — the path a lone event takes.
 * BENCH_CHARGES (default 5,000 on PostgreSQL, 2,000 on PGlite) after 100 warm-up charges; the
 * balance is checked exact at the end of every run.
 */
import { randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { topicOf, type Envelope } from '@earshot/contracts';
import { buildEnvelope, openDatabase, type Database } from '@earshot/kit';
import { createTestStack, openThrowawayDatabase } from '@earshot/kit/testing';
import { billingService } from '@earshot/billing-service';
import { tenantService } from '@earshot/tenant-service';

const WRITERS = Number(process.env.BENCH_WRITERS ?? 50);
const WARM_UP = 100;

type Path = 'bus' | 'one transaction each';
interface Result {
  backend: string;
  path: Path;
  charges: number;
  seconds: number;
  perSecond: number;
  balance: string;
  expected: string;
}

async function bench(
  backend: 'PGlite' | 'PostgreSQL',
  database: Database,
  charges: number,
  path: Path,
): Promise<Result> {
  const stack = await createTestStack([tenantService, billingService], { COMPANY_OPENING_CREDITS: '0' }, { database });
  try {
    const host = await stack.tokenFor('HOST_ADMIN', null);
    const post = async (url: string, payload: Record<string, unknown>) => {
      const res = await stack.as(host, { method: 'POST', url, payload });
      if (res.statusCode !== 201) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      return res.json() as { _id: string };
    };
    const { _id: companyId } = await post('/api/companies', { name: 'Bench', code: 'BENCH', domain: 'bench' });
    await post(`/api/companies/${companyId}/credits`, { amount: 1_000_000, reason: 'Bench' });
    const modelId = randomUUID();
    // 1,234 input tokens at 0.7 per 1,000 and 321 output tokens at 2.1 per 1,000: 0.8638 + 0.6741 = 1.5379 credits a reply.
    await post('/api/pricing', { modelId, unit: 'input_1k', credits: 0.7 });
    await post('/api/pricing', { modelId, unit: 'output_1k', credits: 2.1 });
    const people = Array.from({ length: 20 }, () => randomUUID());
    const reply = (i: number): Envelope =>
      buildEnvelope({
        type: 'chat_reply.finished',
        companyId,
        actor: { type: 'user', id: people[i % people.length]!, role: 'USER' },
        data: {
          conversationId: randomUUID(),
          messageId: randomUUID(),
          model: 'bench-model',
          providerId: randomUUID(),
          builtIn: false,
          status: 'complete',
          usage: { promptTokens: 1234, completionTokens: 321, totalTokens: 1555 },
          modelId,
        },
      });
    const consumer = stack.running.consumers.get('billing')!;
    const charge =
      path === 'bus'
        ? (envelope: Envelope) =>
            stack.bus.publish([{ topic: topicOf('chat_reply.finished'), key: companyId, envelope }])
        : (envelope: Envelope) => consumer.receive(envelope);
    const run = async (count: number, offset: number) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: WRITERS }, async () => {
          for (let i = next++; i < count; i = next++) await charge(reply(offset + i));
        }),
      );
      await stack.settle();
    };
    await run(WARM_UP, 0);
    const started = performance.now();
    await run(charges, WARM_UP);
    const seconds = (performance.now() - started) / 1000;
    const [row] = await stack.database.query<{ balance: string }>(
      'select balance::text from billing.credit_accounts where company_id = $1',
      [companyId],
    );
    // Exact: 1,000,000 − (warm-up + charges) × 1.5379, in ten-thousandths.
    const expectedUnits = 1_000_000 * 10_000 - (WARM_UP + charges) * 15_379;
    const expected = `${Math.floor(expectedUnits / 10_000)}.${String(expectedUnits % 10_000).padStart(4, '0')}`;
    return { backend, path, charges, seconds, perSecond: charges / seconds, balance: row!.balance, expected };
  } finally {
    await stack.close();
  }
}

const results: Result[] = [];
const paths: Path[] = ['bus', 'one transaction each'];
const pgliteCharges = Number(process.env.BENCH_CHARGES ?? 2000);
for (const path of paths) results.push(await bench('PGlite', await openDatabase({}), pgliteCharges, path));
if (process.env.DATABASE_URL) {
  const url = process.env.DATABASE_URL;
  const charges = Number(process.env.BENCH_CHARGES ?? 5000);
  for (const path of paths)
    results.push(await bench('PostgreSQL', await openThrowawayDatabase(url, 'earshot_bench', WRITERS), charges, path));
} else {
  console.log('DATABASE_URL is not set: PostgreSQL skipped.');
}

console.log(
  `\nCharges to one company with ${WRITERS} concurrent writers (${availableParallelism()} CPUs, load ${loadavg()[0]!.toFixed(2)}):`,
);
console.log('| database | path | charges | seconds | charges/s | balance at the end | exact |');
console.log('|---|---|---|---|---|---|---|');
for (const r of results) {
  console.log(
    `| ${r.backend} | ${r.path} | ${r.charges} | ${r.seconds.toFixed(2)} | ${Math.round(r.perSecond)} | ${r.balance} | ${r.balance === r.expected ? 'yes' : `NO (expected ${r.expected})`} |`,
  );
}
if (results.some((r) => r.balance !== r.expected)) process.exit(1);
