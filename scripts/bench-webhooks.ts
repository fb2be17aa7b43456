/**
 * `npm run bench:webhooks`: figures for docs/performance.md and services/webhooks/README.md, on
 * PostgreSQL when DATABASE_URL names a server (a throwaway database), else on embedded PGlite. A
 * receiver on loopback answers at once (or, for the memory run, never). Each event is a real
 * domain event published on the bus and turned into deliveries by the service's consumer.
 *  1. Throughput: BENCH_EVENTS (default 250) `file.uploaded` events of a company with 20 endpoints
 *     (its maximum), so 20 deliveries an event, signed and sent; deliveries/s from the first
 *     publish to the last arrival. Then the same to one endpoint alone (its deliveries in order,
 *     one after the other).
 *  2. Latency: BENCH_LATENCY (default 200) `transcript.completed` events one at a time: from the
 *     event's publish to its arrival at the receiver; median, p95, max.
 *  3. Memory: 1,000 deliveries pending to a receiver that never answers (20 endpoints × 50), with
 *     the retry schedule scaled down so attempts keep coming; heap and RSS sampled every 5 s for
 *     BENCH_MEMORY_SECONDS (default 40: four rounds of 10 s timeouts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { topicOf, type Envelope } from '@earshot/contracts';
import { buildEnvelope, openDatabase, type Database } from '@earshot/kit';
import { createTestStack, openThrowawayDatabase, type TestStack } from '@earshot/kit/testing';
import { webhooksService } from '@earshot/webhooks-service';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 250);
const LATENCY = Number(process.env.BENCH_LATENCY ?? 200);
const MEMORY_SECONDS = Number(process.env.BENCH_MEMORY_SECONDS ?? 40);
const system = { type: 'system', id: null } as const;

/** A receiver that counts what arrives and when, answering 204 at once or never. */
async function receiver(mode: 'ok' | 'never') {
  let count = 0;
  const arrivals = new Map<string, number>();
  const waiting: Array<() => void> = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      count += 1;
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { fileId?: string } };
      if (body.data.fileId) arrivals.set(body.data.fileId, performance.now());
      waiting.splice(0).forEach((wake) => wake());
      if (mode === 'ok') response.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get count() {
      return count;
    },
    arrivals,
    /** Resolves once `done()` holds, checked at every arrival. */
    until: (done: () => boolean) =>
      new Promise<void>((resolve) => {
        const check = () => (done() ? resolve() : waiting.push(check));
        check();
      }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const uploaded = (companyId: string): Envelope =>
  buildEnvelope({
    type: 'file.uploaded',
    companyId,
    actor: system,
    data: {
      id: randomUUID(),
      storageKey: 'k',
      originalName: 'call.wav',
      mimeType: 'audio/wav',
      size: 1,
      clientId: null,
      uploadedBy: null,
    },
  }) as Envelope;

const completed = (companyId: string, fileId: string): Envelope =>
  buildEnvelope({
    type: 'transcript.completed',
    companyId,
    actor: system,
    data: {
      id: randomUUID(),
      fileId,
      engine: 'bench',
      duration: 60,
      speakers: 2,
      words: 150,
      fileName: 'call.wav',
      parts: 1,
    },
  }) as Envelope;

async function publish(stack: TestStack, envelopes: Envelope[]): Promise<void> {
  await stack.bus.publish(
    envelopes.map((envelope) => ({
      topic: topicOf(envelope.type as 'file.uploaded'),
      key: envelope.companyId!,
      envelope,
    })),
  );
}

async function endpoints(stack: TestStack, companyId: string, url: string, count: number, events: string[]) {
  const admin = await stack.tokenFor('ADMIN', companyId);
  for (let i = 0; i < count; i++) {
    const res = await stack.as(admin, {
      method: 'POST',
      url: '/api/webhooks',
      payload: { url: `${url}/e${i}`, events },
    });
    if (res.statusCode !== 201) throw new Error(`endpoint: ${res.statusCode} ${res.body}`);
  }
}

async function open(name: string): Promise<{ database: Database; backend: string }> {
  const url = process.env.DATABASE_URL;
  return url
    ? { database: await openThrowawayDatabase(url, `bench_${name}`, 20), backend: 'PostgreSQL' }
    : { database: await openDatabase({}), backend: 'PGlite' };
}

async function throughput(endpointCount: number, events: number) {
  const { database, backend } = await open('webhooks');
  const stack = await createTestStack(
    [webhooksService],
    { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_CONCURRENCY: '20', WEBHOOK_POLL_MS: '1000' },
    { database },
  );
  const sink = await receiver('ok');
  try {
    const companyId = randomUUID();
    await endpoints(stack, companyId, sink.url, endpointCount, ['file.uploaded']);
    const expected = events * endpointCount;
    const started = performance.now();
    await publish(
      stack,
      Array.from({ length: events }, () => uploaded(companyId)),
    );
    await sink.until(() => sink.count >= expected);
    const seconds = (performance.now() - started) / 1000;
    return { backend, endpoints: endpointCount, deliveries: expected, seconds, perSecond: expected / seconds };
  } finally {
    await stack.close();
    await sink.close();
  }
}

async function latency(samples: number) {
  const { database, backend } = await open('webhooks_latency');
  const stack = await createTestStack([webhooksService], { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }, { database });
  const sink = await receiver('ok');
  try {
    const companyId = randomUUID();
    await endpoints(stack, companyId, sink.url, 1, ['transcript.completed']);
    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
      const fileId = randomUUID();
      const started = performance.now();
      await publish(stack, [completed(companyId, fileId)]);
      await sink.until(() => sink.arrivals.has(fileId));
      times.push(sink.arrivals.get(fileId)! - started);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
    return { backend, samples, median: at(0.5), p95: at(0.95), max: times.at(-1)! };
  } finally {
    await stack.close();
    await sink.close();
  }
}

async function memory(seconds: number) {
  const { database, backend } = await open('webhooks_memory');
  // Retries every few milliseconds: each endpoint's head delivery is attempted again as soon as its
  // 10 s timeout ends, so the run sees as many attempts as it can.
  const stack = await createTestStack(
    [webhooksService],
    { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_SCALE: '0.001', WEBHOOK_POLL_MS: '200' },
    { database },
  );
  const sink = await receiver('never');
  try {
    const companyId = randomUUID();
    await endpoints(stack, companyId, sink.url, 20, ['file.uploaded']);
    await publish(
      stack,
      Array.from({ length: 50 }, () => uploaded(companyId)),
    );
    await stack.settle();
    const [pending] = await stack.database.query<{ n: string }>(
      "select count(*) as n from webhooks.deliveries where status = 'pending'",
    );
    const samples: { heapMb: number; rssMb: number }[] = [];
    const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
    for (let s = 0; s <= seconds; s += 5) {
      global.gc?.();
      const usage = process.memoryUsage();
      samples.push({ heapMb: mb(usage.heapUsed), rssMb: mb(usage.rss) });
      if (s < seconds) await new Promise((resolve) => setTimeout(resolve, 5000));
    }
    return { backend, pending: Number(pending!.n), attempts: sink.count, samples };
  } finally {
    await stack.close();
    await sink.close();
  }
}

console.log(`Machine: ${availableParallelism()} cores, load ${loadavg()[0]!.toFixed(2)}`);
const wide = await throughput(20, EVENTS);
const narrow = await throughput(1, Math.min(EVENTS * 4, 1000));
console.log('\n| database | endpoints | deliveries | seconds | deliveries/s |');
console.log('|---|---|---|---|---|');
for (const r of [wide, narrow])
  console.log(
    `| ${r.backend} | ${r.endpoints} | ${r.deliveries} | ${r.seconds.toFixed(2)} | ${Math.round(r.perSecond)} |`,
  );
const lat = await latency(LATENCY);
console.log('\n| database | transcript.completed → receiver | median ms | p95 ms | max ms |');
console.log('|---|---|---|---|---|');
console.log(
  `| ${lat.backend} | ${lat.samples} events | ${lat.median.toFixed(1)} | ${lat.p95.toFixed(1)} | ${lat.max.toFixed(1)} |`,
);
const mem = await memory(MEMORY_SECONDS);
console.log(
  `\n${mem.pending} deliveries pending to a receiver that never answers (${mem.backend}); ${mem.attempts} attempts held open and cut at 10 s:`,
);
console.log('| after s | heap MB | RSS MB |');
console.log('|---|---|---|');
mem.samples.forEach((s, i) => console.log(`| ${i * 5} | ${s.heapMb} | ${s.rssMb} |`));
