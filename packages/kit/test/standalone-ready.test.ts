import {
  configSchemaFor,
  createLogger,
  defineService,
  MemoryBus,
  prepareServiceApp,
  TokenVerifier,
  type BaseConfig,
} from '../src';
import { openTestDatabase, TEST_JWT_SECRET, TEST_SECRETS_KEY } from '../src/testing';

/** A bus whose consumers join only when the test lets them, as a broker holds a group's join. */
class HeldBus extends MemoryBus {
  release!: () => void;
  private readonly held = new Promise<void>((resolve) => (this.release = resolve));
  override async start(): Promise<void> {
    await this.held;
    await super.start();
  }
}

// A separate process listens before its consumers join the event bus: alive (/health) at once,
// ready (/ready, what Kubernetes sends traffic on) and serving its routes only once joined.
test('a service is alive while its consumers join, and ready only once they have', async () => {
  const logger = createLogger('silent', 'test');
  const bus = new HeldBus(logger);
  const database = await openTestDatabase();
  const probe = defineService({
    name: 'probe',
    schema: 'probe',
    prefixes: ['/probe'],
    migrations: [],
    routes: async (app) => {
      app.get('/probe/hello', { config: { access: 'public' } }, async () => ({ hello: 'world' }));
    },
  });
  const config = configSchemaFor([probe]).parse({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    JWT_SECRET: TEST_JWT_SECRET,
    SECRETS_KEY: TEST_SECRETS_KEY,
  }) as BaseConfig;
  const { app, running, joinBus } = await prepareServiceApp(probe, {
    config,
    database,
    bus,
    logger,
    tokens: new TokenVerifier(900),
  });
  try {
    const joined = joinBus();
    expect((await app.inject({ url: '/health' })).statusCode).toBe(200);
    const starting = await app.inject({ url: '/ready' });
    expect(starting.statusCode).toBe(503);
    expect(starting.json()).toEqual({ status: 'starting', message: 'joining the event bus' });
    // Nothing else is served before the join: it does not know of ended sessions yet.
    const early = await app.inject({ url: '/api/probe/hello' });
    expect(early.statusCode).toBe(503);
    expect(early.headers['retry-after']).toBe('1');
    expect(early.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    // Its route document needs no session: the distributed gateway may ask for it meanwhile.
    expect((await app.inject({ url: '/openapi.json' })).statusCode).toBe(200);

    bus.release();
    await joined;
    const ready = await app.inject({ url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
    expect((await app.inject({ url: '/api/probe/hello' })).json()).toEqual({ hello: 'world' });
  } finally {
    await app.close();
    await running.stop();
    await bus.stop();
    await database.close();
  }
});
