import type { AddressInfo } from 'node:net';
import { BaseConfigSchema, buildServer, loadConfig, loadSheddingFrom, type LoadShedding } from '../src';

// Saturation is simulated through under-pressure's health check, which is evaluated when the
// server starts: the same path a too-long event-loop delay takes, without depending on timing.
async function serverWith(loadShedding: LoadShedding) {
  const app = buildServer({ logLevel: 'silent', name: 'shed-test', loadShedding });
  app.get('/things', async () => ({ ok: true }));
  app.get('/health', async () => ({ status: 'ok' }));
  await app.ready();
  // Work done while starting (the demo seed goes through inject) is never shed.
  expect((await app.inject({ method: 'GET', url: '/things' })).statusCode).toBe(200);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return app;
}

test('a saturated server answers 503 with Retry-After at once, and liveness still answers', async () => {
  const app = await serverWith({ maxEventLoopDelayMs: 1000, maxInFlight: 0, retryAfterSeconds: 3, healthCheck: async () => false, healthCheckIntervalMs: 60_000 });
  try {
    const res = await app.inject({ method: 'GET', url: '/things' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('3');
    expect(res.json()).toEqual({ message: 'The server is busy, try again shortly', code: 'SERVICE_UNAVAILABLE' });
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  } finally {
    await app.close();
  }
});

test('a server with room answers normally', async () => {
  const app = await serverWith({ maxEventLoopDelayMs: 1000, maxInFlight: 0, retryAfterSeconds: 3, healthCheck: async () => true, healthCheckIntervalMs: 60_000 });
  try {
    expect((await app.inject({ method: 'GET', url: '/things' })).statusCode).toBe(200);
  } finally {
    await app.close();
  }
});

test('thresholds come from the configuration, with a default outside tests', () => {
  const from = (env: Record<string, string>) => loadSheddingFrom(loadConfig(BaseConfigSchema, env));
  expect(from({ NODE_ENV: 'production' })).toEqual({ maxEventLoopDelayMs: 500, maxInFlight: 100, retryAfterSeconds: 2 });
  expect(from({ NODE_ENV: 'test' })).toEqual({ maxEventLoopDelayMs: 0, maxInFlight: 0, retryAfterSeconds: 2 });
  expect(from({ NODE_ENV: 'test', LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '250', LOAD_SHED_MAX_IN_FLIGHT: '40', LOAD_SHED_RETRY_AFTER_SECONDS: '5' }))
    .toEqual({ maxEventLoopDelayMs: 250, maxInFlight: 40, retryAfterSeconds: 5 });
  expect(() => loadConfig(BaseConfigSchema, { LOAD_SHED_RETRY_AFTER_SECONDS: '0' })).toThrow(/LOAD_SHED_RETRY_AFTER_SECONDS/);
});

test('past the in-flight limit a request is refused at once; a finished one frees its place', async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const waiting = new Promise<void>((resolve) => (arrived = resolve));
  const app = buildServer({ logLevel: 'silent', name: 'shed-test', loadShedding: { maxEventLoopDelayMs: 0, maxInFlight: 1, retryAfterSeconds: 4 } });
  app.get('/slow', async () => {
    arrived();
    await held;
    return { ok: true };
  });
  app.get('/things', async () => ({ ok: true }));
  app.get('/health', async () => ({ status: 'ok' }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  try {
    const slow = fetch(`${base}/slow`);
    await waiting;
    const refused = await fetch(`${base}/things`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('4');
    expect((await fetch(`${base}/health`)).status).toBe(200);
    release();
    expect((await slow).status).toBe(200);
    // The finished request's place is free again (its socket has closed by the time fetch resolves
    // the next one's response at the latest, so retry until it is).
    let status = 503;
    while (status === 503) status = (await fetch(`${base}/things`)).status;
    expect(status).toBe(200);
  } finally {
    await app.close();
  }
});
