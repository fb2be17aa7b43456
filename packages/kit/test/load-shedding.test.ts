import {
  BaseConfigSchema,
  QueueMonitor,
  buildServer,
  loadConfig,
  loadSheddingFrom,
  prometheus,
  type LoadShedding,
} from '../src';

/** How many requests were shed for `reason` so far (the /metrics counter). */
async function shedCount(reason: string): Promise<number> {
  const { values } = await prometheus.register.getSingleMetric('earshot_http_requests_shed_total')!.get();
  return values.find((v) => v.labels.reason === reason)?.value ?? 0;
}

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
  const app = await serverWith({
    maxEventLoopDelayMs: 1000,
    maxQueueDelayMs: 0,
    retryAfterSeconds: 3,
    healthCheck: async () => false,
    healthCheckIntervalMs: 60_000,
  });
  try {
    const before = await shedCount('health');
    const res = await app.inject({ method: 'GET', url: '/things' });
    expect(res.statusCode).toBe(503);
    expect(await shedCount('health')).toBe(before + 1);
    expect(res.headers['retry-after']).toBe('3');
    expect(res.json()).toEqual({ message: 'The server is busy, try again shortly', code: 'SERVICE_UNAVAILABLE' });
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  } finally {
    await app.close();
  }
});

test('a server with room answers normally', async () => {
  const app = await serverWith({
    maxEventLoopDelayMs: 1000,
    maxQueueDelayMs: 0,
    retryAfterSeconds: 3,
    healthCheck: async () => true,
    healthCheckIntervalMs: 60_000,
  });
  try {
    expect((await app.inject({ method: 'GET', url: '/things' })).statusCode).toBe(200);
  } finally {
    await app.close();
  }
});

test('thresholds come from the configuration, with a default outside tests', () => {
  const from = (env: Record<string, string>) => loadSheddingFrom(loadConfig(BaseConfigSchema, env));
  expect(from({ NODE_ENV: 'production' })).toEqual({
    maxEventLoopDelayMs: 500,
    maxQueueDelayMs: 500,
    retryAfterSeconds: 2,
  });
  expect(from({ NODE_ENV: 'test' })).toEqual({ maxEventLoopDelayMs: 0, maxQueueDelayMs: 0, retryAfterSeconds: 2 });
  expect(
    from({
      NODE_ENV: 'test',
      LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '250',
      LOAD_SHED_MAX_QUEUE_DELAY_MS: '800',
      LOAD_SHED_RETRY_AFTER_SECONDS: '5',
    }),
  ).toEqual({ maxEventLoopDelayMs: 250, maxQueueDelayMs: 800, retryAfterSeconds: 5 });
  expect(() => loadConfig(BaseConfigSchema, { LOAD_SHED_RETRY_AFTER_SECONDS: '0' })).toThrow(
    /LOAD_SHED_RETRY_AFTER_SECONDS/,
  );
});

describe('a standing queue', () => {
  // The clock is the test's: a second passes when the test says so.
  let clock = 0;
  const monitor = () => new QueueMonitor(500, () => clock, 1000, 20);
  const answer = (queue: QueueMonitor, ms: number, times = 1) => {
    for (let i = 0; i < times; i++) queue.record(ms);
  };
  beforeEach(() => (clock = 0));

  test('many requests that all waited past the target, a whole second long, shed the next second', () => {
    const queue = monitor();
    answer(queue, 900, 30);
    answer(queue, 501);
    expect(queue.overloaded).toBe(false);
    clock += 1000;
    expect(queue.overloaded).toBe(true);
  });

  test('one fast answer in the second shows the queue drains: no shedding', () => {
    const queue = monitor();
    answer(queue, 2000, 30);
    answer(queue, 40);
    clock += 1000;
    expect(queue.overloaded).toBe(false);
  });

  test('a quiet server with a few long requests (uploads, chat streams) is not overloaded', () => {
    const queue = monitor();
    answer(queue, 30_000, 19);
    clock += 1000;
    expect(queue.overloaded).toBe(false);
  });

  test('shedding ends once a second passes with fast answers, or with none', () => {
    const queue = monitor();
    answer(queue, 900, 30);
    clock += 1000;
    expect(queue.overloaded).toBe(true);
    answer(queue, 10, 30);
    clock += 1000;
    expect(queue.overloaded).toBe(false);
    answer(queue, 900, 30);
    clock += 1000;
    expect(queue.overloaded).toBe(true);
    clock += 5000;
    expect(queue.overloaded).toBe(false);
  });
});

test('a server with a standing queue refuses new requests with 503 at once; liveness still answers; the refusals do not count', async () => {
  let clock = 0;
  // Any real answer takes longer than this target: every answered request counts as queued.
  const app = await serverWith({
    maxEventLoopDelayMs: 0,
    maxQueueDelayMs: Number.MIN_VALUE,
    retryAfterSeconds: 4,
    now: () => clock,
  });
  try {
    for (let i = 0; i < 20; i++) expect((await app.inject({ method: 'GET', url: '/things' })).statusCode).toBe(200);
    // Within the second, nothing is decided yet.
    expect((await app.inject({ method: 'GET', url: '/things' })).statusCode).toBe(200);
    clock += 1000;
    const before = await shedCount('queue');
    const refused = await app.inject({ method: 'GET', url: '/things' });
    expect(refused.statusCode).toBe(503);
    expect(await shedCount('queue')).toBe(before + 1);
    expect(refused.headers['retry-after']).toBe('4');
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    // The next second saw only refusals (answered at once, not counted) and liveness: no queue.
    for (let i = 0; i < 20; i++) await app.inject({ method: 'GET', url: '/things' });
    clock += 1000;
    expect((await app.inject({ method: 'GET', url: '/things' })).statusCode).toBe(200);
  } finally {
    await app.close();
  }
});

test('without the check nothing is shed, however long requests took', async () => {
  let clock = 0;
  const app = await serverWith({ maxEventLoopDelayMs: 0, maxQueueDelayMs: 0, retryAfterSeconds: 4, now: () => clock });
  try {
    for (let i = 0; i < 30; i++) await app.inject({ method: 'GET', url: '/things' });
    clock += 1000;
    expect((await app.inject({ method: 'GET', url: '/things' })).statusCode).toBe(200);
  } finally {
    await app.close();
  }
});
