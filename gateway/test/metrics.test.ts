import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InjectOptions } from 'fastify';
import { parse } from 'yaml';
import {
  buildServiceApp,
  configSchemaFor,
  createLogger,
  defineService,
  loadConfig,
  MemoryBus,
  SPANS_DROPPED_METRIC,
  TokenVerifier,
  watchConsumerLag,
  type BaseConfig,
  type Database,
} from '@earshot/kit';
import { openTestDatabase, TEST_JWT_SECRET } from '@earshot/kit/testing';
import { createAllInOne, type AllInOne } from '../src';
import { createDistributedGateway, distributedConfigSchema, type DistributedGateway } from '../src/proxy';

// /metrics on the real all-in-one (every service mounted, a real database): who may read it, what
// moves when something happens, and that every metric the dashboard and the alert rules ask for is
// one a process exposes. Then the distributed gateway: its own /metrics, never a service's.

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const METRICS_TOKEN = 'metrics-test-token-0123456789abcdefghijkl';
const OUTSIDE = '10.0.0.1';

let earshot: AllInOne;
let database: Database;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'earshot-metrics-'));
  database = await openTestDatabase();
  earshot = await createAllInOne({
    database,
    logger: createLogger('silent'),
    env: {
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      ADMIN_PASSWORD: 'metrics-admin-password',
      METRICS_TOKEN,
      // Nothing claims jobs behind the test's back.
      TRANSCRIPTION_WORKER: 'false',
    },
  });
}, 120_000);

afterAll(async () => {
  await earshot?.close();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const scrape = async (options: Partial<InjectOptions> = {}) => {
  const res = await earshot.app.inject({ method: 'GET', url: '/metrics', ...options });
  expect(res.statusCode).toBe(200);
  return res.body;
};

/** The value of one series in Prometheus's text format, or undefined when it is not there. */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

describe('who may read /metrics', () => {
  test('a caller on loopback reads it in the Prometheus text format, without a token', async () => {
    const res = await earshot.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toMatch(/^# TYPE earshot_http_request_duration_seconds histogram$/m);
    expect(res.body).toMatch(/^# TYPE process_cpu_seconds_total counter$/m);
    const v6 = await earshot.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '::1' });
    expect(v6.statusCode).toBe(200);
  });

  test('from outside loopback it is 401 without the token and with a wrong one, 200 with METRICS_TOKEN', async () => {
    const bare = await earshot.app.inject({ method: 'GET', url: '/metrics', remoteAddress: OUTSIDE });
    expect(bare.statusCode).toBe(401);
    expect(bare.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(bare.body).not.toMatch(/earshot_/);
    const wrong = await earshot.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: OUTSIDE,
      headers: { authorization: `Bearer ${METRICS_TOKEN}x` },
    });
    expect(wrong.statusCode).toBe(401);
    const right = await earshot.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: OUTSIDE,
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(right.statusCode).toBe(200);
    expect(right.body).toMatch(/earshot_http_requests_in_flight/);
  });

  test('a request relayed by a proxy on this machine counts as from outside', async () => {
    const relayed = await earshot.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(relayed.statusCode).toBe(401);
  });

  test('it is no API route: /api/metrics is a 404, and the OpenAPI document does not list it', async () => {
    expect((await earshot.app.inject({ method: 'GET', url: '/api/metrics' })).statusCode).toBe(404);
    const docs = await earshot.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(Object.keys((docs.json() as { paths: Record<string, unknown> }).paths)).not.toContain('/metrics');
  });
});

describe('the values move', () => {
  test('a request adds to the duration histogram of its route template and status class', async () => {
    const series = { method: 'GET', route: '/api/config/company/:subdomain', status_class: '4xx' };
    const before = valueOf(await scrape(), 'earshot_http_request_duration_seconds_count', series) ?? 0;
    const res = await earshot.app.inject({ method: 'GET', url: '/api/config/company/no-such-company' });
    expect(res.statusCode).toBe(404);
    const after = await scrape();
    expect(valueOf(after, 'earshot_http_request_duration_seconds_count', series)).toBe(before + 1);
    // The template, never the URL: a series per company name would grow without end.
    expect(after).not.toMatch(/no-such-company/);
  });

  test('an unpublished outbox event shows in the backlog and its age; a parked event in the parked count', async () => {
    // The relays would publish the row before the scrape: stopped, the row stays unpublished.
    await Promise.all(earshot.running.relays.map((relay) => relay.stop()));
    const id = randomUUID();
    await database.query(
      `insert into tenant.outbox (id, topic, key, envelope, created_at)
       values ($1, 'company', 'none', '{}'::jsonb, now() - interval '10 minutes')`,
      [id],
    );
    await database.query(
      `insert into audit.parked_events (consumer, event_id, type, envelope, attempts, error, parked_at)
       values ('audit', $1, 'company.created', '{}'::jsonb, 5, 'kept failing', now())`,
      [id],
    );
    try {
      const text = await scrape();
      expect(valueOf(text, 'earshot_outbox_backlog', { service: 'tenant' })).toBe(1);
      expect(valueOf(text, 'earshot_outbox_oldest_unpublished_seconds', { service: 'tenant' })).toBeGreaterThanOrEqual(
        600,
      );
      expect(valueOf(text, 'earshot_outbox_backlog', { service: 'auth' })).toBe(0);
      expect(valueOf(text, 'earshot_events_parked', { service: 'audit' })).toBe(1);
      expect(valueOf(text, 'earshot_events_parked', { service: 'chat' })).toBe(0);
    } finally {
      await database.query(`delete from tenant.outbox where id = $1`, [id]);
      await database.query(`delete from audit.parked_events where event_id = $1`, [id]);
      earshot.running.relays.forEach((relay) => relay.start());
    }
    expect(valueOf(await scrape(), 'earshot_outbox_backlog', { service: 'tenant' })).toBe(0);
  });

  test('queued mail, credits charged and transcription jobs are read from their tables', async () => {
    const before = await scrape();
    const charged = valueOf(before, 'earshot_credits_charged_total') ?? 0;
    expect(valueOf(before, 'earshot_transcription_jobs', { state: 'pending' })).toBe(0);
    const company = randomUUID();
    // Not due for an hour: the sender leaves it queued.
    await database.query(
      `insert into messaging.mail_messages (company_id, type, language, to_address, subject, status, next_attempt_at, created_at)
       values ($1, 'test', 'en', 'someone@acme.test', 'Hello', 'queued', now() + interval '1 hour', now() - interval '2 minutes')`,
      [company],
    );
    await database.query(
      `insert into billing.credit_spend (company_id, user_id, month, credits) values ($1, '', '2026-01', 12.5), ($1, 'a-person', '2026-01', 12.5)`,
      [company],
    );
    try {
      const text = await scrape();
      expect(valueOf(text, 'earshot_mail_queue', { status: 'queued' })).toBe(1);
      expect(valueOf(text, 'earshot_mail_queue_oldest_seconds')).toBeGreaterThanOrEqual(120);
      // The company's total once, not its person's share again.
      expect(valueOf(text, 'earshot_credits_charged_total')).toBeCloseTo(charged + 12.5, 4);
    } finally {
      await database.query(`delete from messaging.mail_messages where company_id = $1`, [company]);
      await database.query(`delete from billing.credit_spend where company_id = $1`, [company]);
    }
  });

  test('consumer lag counts what a group has not handled yet, per topic', async () => {
    const bus = new MemoryBus();
    await bus.subscribe({
      group: 'lagging-consumer',
      topics: ['transcription', 'file'],
      handle: async () => undefined,
    });
    const envelope = () => ({ id: randomUUID() }) as never;
    // Not started: what is published waits in the group's queue.
    await bus.publish([
      { topic: 'transcription', key: 'k', envelope: envelope() },
      { topic: 'transcription', key: 'k', envelope: envelope() },
    ]);
    const stop = watchConsumerLag(bus, createLogger('silent'));
    try {
      const text = await scrape();
      expect(valueOf(text, 'earshot_event_consumer_lag', { group: 'lagging-consumer', topic: 'transcription' })).toBe(
        2,
      );
      expect(valueOf(text, 'earshot_event_consumer_lag', { group: 'lagging-consumer', topic: 'file' })).toBe(0);
      await bus.start();
      await bus.idle();
      expect(
        valueOf(await scrape(), 'earshot_event_consumer_lag', { group: 'lagging-consumer', topic: 'transcription' }),
      ).toBe(0);
    } finally {
      stop();
      await bus.stop();
    }
  });
});

test('every metric the Grafana dashboard and the alert rules ask for is one the process exposes', async () => {
  const text = await scrape();
  const exposed = new Set<string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    exposed.add(name!);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) exposed.add(name + suffix);
    if (type === 'summary') for (const suffix of ['_sum', '_count']) exposed.add(name + suffix);
  }
  const dashboard = JSON.parse(readFileSync(join(root, 'deploy/grafana/earshot-dashboard.json'), 'utf8')) as {
    panels: { targets?: { expr: string }[] }[];
  };
  const rules = parse(readFileSync(join(root, 'deploy/prometheus/alerts.yml'), 'utf8')) as {
    groups: { rules: { expr: string }[] }[];
  };
  const expressions = [
    ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr)),
    ...rules.groups.flatMap((g) => g.rules.map((r) => r.expr)),
  ];
  const asked = new Set(expressions.flatMap((expr) => expr.match(/\b(?:earshot|process|nodejs)_[a-z0-9_]+/g) ?? []));
  // Each of the areas the operator watches is asked for at least once.
  for (const name of [
    'earshot_http_request_duration_seconds_bucket',
    'earshot_http_requests_shed_total',
    'earshot_event_consumer_lag',
    'earshot_events_parked',
    'earshot_outbox_oldest_unpublished_seconds',
    'earshot_transcription_jobs',
    'earshot_ai_provider_calls_total',
    'earshot_credits_charged_total',
    'earshot_mail_queue',
    SPANS_DROPPED_METRIC,
  ])
    expect(asked).toContain(name);
  // The dropped-spans counter exists only in a process with tracing on (a collector configured),
  // which this one is not: packages/kit/test/telemetry.test.ts counts it.
  expect([...asked].filter((name) => !exposed.has(name) && name !== SPANS_DROPPED_METRIC)).toEqual([]);
});

describe('the distributed gateway', () => {
  let upstream: Server;
  const reached: string[] = [];
  let gateway: DistributedGateway;

  beforeAll(async () => {
    // A service that answers anything, noting what reached it.
    upstream = createServer((request: IncomingMessage, response) => {
      reached.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'text/plain' }).end('upstream metrics 1\n');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const config = loadConfig(distributedConfigSchema, {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      JWT_SECRET: TEST_JWT_SECRET,
      METRICS_TOKEN,
      AUTH_JWKS_URL: `${url}/api/auth/jwks`,
    });
    gateway = await createDistributedGateway(
      { ...config, STATS_SERVICE_URL: url } as typeof config,
      [{ name: 'stats', prefixes: ['/stats'] }],
      { logger: createLogger('silent'), bus: new MemoryBus() },
    );
    await gateway.app.ready();
  }, 60_000);

  afterAll(async () => {
    await gateway?.app.close();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  test('answers /metrics itself under the same rule, and passes neither /metrics nor /api/metrics on', async () => {
    const proxied = await gateway.app.inject({ method: 'GET', url: '/api/stats/anything' });
    expect(proxied.statusCode).toBe(200);
    expect(reached).toEqual(['/api/stats/anything']);

    const own = await gateway.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(own.statusCode).toBe(200);
    expect(own.body).toMatch(/earshot_http_request_duration_seconds_count\{[^}]*route="\/api\/stats\/\*"/);
    expect(own.body).not.toMatch(/upstream metrics/);
    expect((await gateway.app.inject({ method: 'GET', url: '/metrics', remoteAddress: OUTSIDE })).statusCode).toBe(401);
    expect((await gateway.app.inject({ method: 'GET', url: '/api/metrics', remoteAddress: OUTSIDE })).statusCode).toBe(
      404,
    );
    expect((await gateway.app.inject({ method: 'GET', url: '/api/metrics' })).statusCode).toBe(404);
    expect(reached).toEqual(['/api/stats/anything']);
  });
});

test('a process with no API of its own (a worker) answers /metrics on its probe port, under the same rule', async () => {
  // What the transcription worker is: a service module without routes, started like every service.
  const worker = defineService({
    name: 'idle-worker',
    schema: 'metrics_idle_worker',
    prefixes: [],
    migrations: [],
    async routes() {},
  });
  const config = loadConfig(configSchemaFor([worker]), {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    METRICS_TOKEN,
  }) as BaseConfig;
  const bus = new MemoryBus();
  const { app, running } = await buildServiceApp(worker, {
    config,
    database,
    bus,
    logger: createLogger('silent'),
    tokens: new TokenVerifier(900),
  });
  try {
    const own = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(own.statusCode).toBe(200);
    expect(valueOf(own.body, 'earshot_outbox_backlog', { service: 'idle-worker' })).toBe(0);
    expect((await app.inject({ method: 'GET', url: '/metrics', remoteAddress: OUTSIDE })).statusCode).toBe(401);
    const withToken = await app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: OUTSIDE,
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(withToken.statusCode).toBe(200);
  } finally {
    await app.close();
    await running.stop();
    await bus.stop();
  }
  // Stopped, its outbox is no longer reported.
  expect(valueOf(await scrape(), 'earshot_outbox_backlog', { service: 'idle-worker' })).toBeUndefined();
});

test('a METRICS_TOKEN shorter than 32 characters stops the process at start, naming it', () => {
  expect(() =>
    loadConfig(distributedConfigSchema, { JWT_SECRET: TEST_JWT_SECRET, METRICS_TOKEN: 'too-short' }),
  ).toThrow(/METRICS_TOKEN: must be at least 32 characters/);
});
