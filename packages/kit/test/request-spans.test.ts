import { request } from 'node:http';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { buildServer, createLogger, withSpan, type App } from '../src';
import { traceToReceiver, type OtlpReceiver } from '../src/testing';

// Each request's server span comes from the server's own hooks (not OpenTelemetry's http
// instrumentation): named by its route, continuing the caller's trace, around the handler's own
// spans even when the handler runs after a body was read, and written in the request's log line.
let receiver: OtlpReceiver;
let stopTracing: () => Promise<void>;
let app: App;
let origin: string;
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  ({ receiver, stop: stopTracing } = await traceToReceiver('kit-request-spans-test', 'spans'));
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      callback();
    },
  });
  app = buildServer({ logger: createLogger('info', 'request-spans', { stream }), logLevel: 'info', name: 'spans' });
  app.get('/api/items/:id', async () => withSpan('read item', {}, async () => ({ ok: true })));
  app.post('/api/items', { schema: { body: z.object({ name: z.string() }) } }, async (request) =>
    withSpan('write item', {}, async () => ({ name: (request.body as { name: string }).name })),
  );
  app.get('/api/calendar/feed/:secret', async () => withSpan('feed', {}, async () => 'BEGIN:VCALENDAR'));
  app.get('/api/broken', async () => {
    throw new Error('boom');
  });
  app.get('/api/health', async () => ({ status: 'ok' }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app.close();
  await stopTracing();
});

const serverSpan = (path: string) =>
  receiver.until((spans) => spans.find((s) => s.kind === 2 && s.attributes['url.path'] === path));
const child = (name: string) => receiver.until((spans) => spans.find((s) => s.name === name));

test('a request is one server span named by its route, around the handler’s spans, its trace id in the log line', async () => {
  expect((await fetch(`${origin}/api/items/42?expand=1`)).status).toBe(200);
  const span = await serverSpan('/api/items/42');
  expect(span).toMatchObject({
    name: 'GET /api/items/:id',
    attributes: {
      'http.request.method': 'GET',
      'http.route': '/api/items/:id',
      'http.response.status_code': 200,
      'url.scheme': 'http',
      'earshot.service': 'spans',
    },
  });
  expect(await child('read item')).toMatchObject({ traceId: span.traceId, parentSpanId: span.spanId });
  const line = lines.find((l) => (l.req as { url?: string } | undefined)?.url === '/api/items/42?expand=1');
  expect(line).toMatchObject({ msg: 'request completed', traceId: span.traceId });
});

test("a caller's trace is continued, and a handler that runs once the body is read is still in the span", async () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  // node:http, whose instrumentation adds no span of its own outside a trace (fetch's would be the parent).
  const status = await new Promise<number | undefined>((resolve, reject) => {
    const call = request(`${origin}/api/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    call.on('response', (response) => response.resume().on('end', () => resolve(response.statusCode)));
    call.on('error', reject);
    call.end(JSON.stringify({ name: 'x'.repeat(100_000) }));
  });
  expect(status).toBe(200);
  const span = await serverSpan('/api/items');
  expect(span).toMatchObject({ traceId, parentSpanId: '00f067aa0ba902b7', name: 'POST /api/items' });
  expect(await child('write item')).toMatchObject({ traceId, parentSpanId: span.spanId });
});

test('the secret part of an address stays out of the span; a 5xx is recorded', async () => {
  expect((await fetch(`${origin}/api/calendar/feed/very-secret-feed-token`)).status).toBe(200);
  expect((await fetch(`${origin}/api/broken`)).status).toBe(500);
  const feed = await serverSpan('/api/calendar/feed/[redacted]');
  expect(JSON.stringify(feed)).not.toContain('very-secret-feed-token');
  expect((await serverSpan('/api/broken')).attributes['http.response.status_code']).toBe(500);
});

test('probes are not traced', async () => {
  expect((await fetch(`${origin}/api/health`)).status).toBe(200);
  // A request after it: once its span is out, the probe's would have been in the same batch or before.
  expect((await fetch(`${origin}/api/items/after-probe`)).status).toBe(200);
  await serverSpan('/api/items/after-probe');
  expect(receiver.spans.filter((s) => s.kind === 2 && s.attributes['url.path'] === '/api/health')).toEqual([]);
});
