import { Writable } from 'node:stream';
import { buildServer, createLogger } from '../src';

// Production logs: one JSON line per answered request, none for the liveness and readiness probes
// (polled every few seconds), each with the trace id: the request's server span's (see request-spans.test.ts), else the request id.
function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      callback();
    },
  });
  const app = buildServer({ logger: createLogger('info', 'request-log', { stream }), logLevel: 'info', name: 'rl' });
  app.get('/api/health', async () => ({ status: 'ok' }));
  app.get('/api/ready', async () => ({ status: 'ready' }));
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/api/tasks/ready', async () => ({ status: 'ready' }));
  app.get('/api/tasks', async () => ({ tasks: [] }));
  app.get('/api/broken', async () => {
    throw new Error('boom');
  });
  return { app, lines };
}

test('probes write nothing; every other request writes one line with its trace id', async () => {
  const { app, lines } = capture();
  for (const url of ['/api/health', '/api/ready', '/health', '/api/tasks/ready', '/health?probe=1']) {
    expect((await app.inject({ url })).statusCode).toBe(200);
  }
  expect(lines).toEqual([]);

  const answer = await app.inject({ url: '/api/tasks?status=todo', headers: { 'x-request-id': 'req-1' } });
  const failed = await app.inject({ url: '/api/broken' });
  const missing = await app.inject({ url: '/api/nowhere' });
  await app.close();
  expect(answer.statusCode).toBe(200);
  expect(failed.statusCode).toBe(500);
  expect(missing.statusCode).toBe(404);
  const requests = lines.filter((line) => line.req);
  expect(
    requests.map((line) => [(line.req as { url: string }).url, (line.res as { statusCode: number }).statusCode]),
  ).toEqual([
    ['/api/tasks?status=todo', 200],
    ['/api/broken', 500],
    ['/api/nowhere', 404],
  ]);
  // Without tracing, the request id stands in for the trace id.
  expect(requests[0]).toMatchObject({ msg: 'request completed', reqId: 'req-1', traceId: 'req-1' });
  expect(requests[1]!.traceId).toBe(failed.headers['x-request-id']);
});
