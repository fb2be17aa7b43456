import { execFileSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { trace } from '@opentelemetry/api';
import { register } from 'prom-client';
import { SPANS_DROPPED_METRIC, startTelemetry, withSpan } from '../src';
import { startOtlpReceiver, type OtlpReceiver } from '../src/testing';

// The exporter as configured by default (OTLP/HTTP protobuf), and what a collector that is down
// costs: nothing to a request, spans dropped and counted on prom-client's default registry.
const QUEUE = 8;
let receiver: OtlpReceiver;
let stopTelemetry: () => Promise<void>;
let app: FastifyInstance;
let origin: string;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  delete process.env.OTEL_EXPORTER_OTLP_PROTOCOL;
  process.env.OTEL_BSP_SCHEDULE_DELAY = '50';
  process.env.OTEL_BSP_MAX_QUEUE_SIZE = String(QUEUE);
  process.env.OTEL_EXPORTER_OTLP_TIMEOUT = '2000';
  stopTelemetry = await startTelemetry(receiver.endpoint, 'kit-telemetry-test');
  app = Fastify();
  app.get('/work', async () => withSpan('traced work', {}, async () => ({ done: true })));
  await app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app.close();
  await receiver.close();
  for (const name of ['OTEL_BSP_SCHEDULE_DELAY', 'OTEL_BSP_MAX_QUEUE_SIZE', 'OTEL_EXPORTER_OTLP_TIMEOUT'])
    delete process.env[name];
});

const dropped = async () => (await register.getSingleMetric(SPANS_DROPPED_METRIC)!.get()).values[0]?.value ?? 0;

test('spans go out as OTLP/HTTP protobuf unless http/json is asked for', async () => {
  expect((await fetch(`${origin}/work`)).status).toBe(200);
  const sent = await receiver.until(() =>
    receiver.requests.find((r) => r.body.includes('traced work') && r.contentType === 'application/x-protobuf'),
  );
  expect(sent.path).toBe('/v1/traces');
  expect(receiver.spans).toEqual([]);
});

test('a collector that is down: the request still answers, spans are dropped and counted', async () => {
  receiver.setDown(true);
  const before = await dropped();
  const answer = await fetch(`${origin}/work`);
  expect(answer.status).toBe(200);
  expect(await answer.json()).toEqual({ done: true });

  // A burst larger than the queue: what does not fit is refused at once, never held.
  const BURST = 5 * QUEUE;
  const tracer = trace.getTracer('burst');
  for (let i = 0; i < BURST; i++) tracer.startSpan(`burst ${i}`).end();
  // At most a queue's worth waits, and at most a batch (no larger than the queue) is being sent.
  expect((await dropped()) - before).toBeGreaterThanOrEqual(BURST - 2 * QUEUE);

  // What waited fails to export when flushed at shutdown: every span since the collector went down is counted.
  await stopTelemetry();
  expect((await dropped()) - before).toBeGreaterThanOrEqual(BURST + 1);
});

test('without an endpoint no OpenTelemetry SDK module is loaded', () => {
  // A process of its own: this one has the SDK loaded already.
  const script = `
    import { createRequire } from 'node:module';
    import { startTelemetry } from ${JSON.stringify(join(import.meta.dirname, '..', 'src', 'telemetry.ts'))};
    const loaded = () => Object.keys(createRequire(import.meta.url).cache).filter((path) => /@opentelemetry[\\/](sdk-|exporter-|instrumentation)/.test(path)).length;
    await startTelemetry(undefined, 'off');
    const off = loaded();
    const stop = await startTelemetry('http://127.0.0.1:9', 'on');
    console.log(JSON.stringify({ off, on: loaded() }));
    await stop();`;
  const { NODE_OPTIONS: _jest, ...env } = process.env;
  const counts = JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env }).toString(),
  ) as { off: number; on: number };
  expect(counts.off).toBe(0);
  // The same check sees them once an endpoint is given: it is not blind.
  expect(counts.on).toBeGreaterThan(0);
});
