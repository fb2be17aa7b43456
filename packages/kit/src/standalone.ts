import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { SERVICE_OPENAPI_PATH } from '@earshot/contracts';
import { z } from 'zod';
import { BaseConfigSchema, kafkaGroupTimings, loadConfig, type BaseConfig } from './config';
import { createLogger } from './logger';
import { openDatabase, type Database } from './db/database';
import { KafkaBus, MemoryBus, type EventBus } from './bus';
import { TokenVerifier, authGuard, sessionEndSubscription } from './auth';
import { checkApiKeysRemotely } from './api-keys';
import { buildServer, loadSheddingFrom } from './server';
import { mountServices, startServices, type RunningServices, type RuntimeDeps } from './runtime';
import { serviceUnavailable } from './errors';
import { startTelemetry } from './telemetry';
import { registerMetricsRoute } from './metrics';
import type { ServiceModule } from './module';

/** The environment schema for a set of modules: the base keys plus each module's own. */
export function configSchemaFor(modules: readonly ServiceModule[]) {
  const shape = Object.assign({}, ...modules.map((m) => m.configShape ?? {})) as z.ZodRawShape;
  return BaseConfigSchema.extend(shape);
}

export function createBus(config: BaseConfig, logger: ReturnType<typeof createLogger>): EventBus {
  return config.KAFKA_BROKERS
    ? new KafkaBus({
        brokers: config.KAFKA_BROKERS.split(','),
        clientId: config.KAFKA_CLIENT_ID,
        logger,
        partitions: config.KAFKA_PARTITIONS,
        replicationFactor: config.KAFKA_REPLICATION_FACTOR,
        topicCreation: config.KAFKA_TOPIC_CREATION,
        group: kafkaGroupTimings(config),
      })
    : new MemoryBus(logger);
}

/**
 * Liveness and readiness for a process (Kubernetes probes; the gateway's /api/ready asks these).
 * `joined` says whether the process has joined its event consumer groups: until then it is alive
 * but not ready, so it gets no traffic while the broker holds the join (its rebalance delay).
 */
export function registerProbes(
  app: FastifyInstance,
  database: Database,
  prefix = '',
  joined: () => boolean = () => true,
): void {
  app.get(`${prefix}/health`, { config: { access: 'public' } }, async () => ({ status: 'ok' }));
  app.get(`${prefix}/ready`, { config: { access: 'public' } }, async (_request, reply) => {
    if (!joined()) return reply.code(503).send({ status: 'starting', message: 'joining the event bus' });
    try {
      await database.query('select 1');
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'unavailable', message: 'database unreachable' });
    }
  });
}

/** What a service answers while its consumers join: nothing that needs a session. */
const SERVED_BEFORE_JOIN = new Set(['/health', '/ready', '/metrics', SERVICE_OPENAPI_PATH]);

/**
 * One service on its own Fastify app (guard, probes, routes, handlers), started, with its event
 * consumers joined: what tests start to stand in for a distributed process.
 */
export async function buildServiceApp(
  module: ServiceModule,
  deps: RuntimeDeps,
): Promise<{ app: FastifyInstance; running: RunningServices }> {
  const { app, running, joinBus } = await prepareServiceApp(module, deps);
  await joinBus();
  return { app, running };
}

/**
 * As buildServiceApp, but the event consumers join only when `joinBus` is called: a process listens
 * first (alive at once), then joins, and answers /ready once joined.
 */
export async function prepareServiceApp(
  module: ServiceModule,
  deps: RuntimeDeps,
): Promise<{ app: FastifyInstance; running: RunningServices; joinBus(): Promise<void> }> {
  let joined = false;
  const app = buildServer({
    logLevel: deps.config.LOG_LEVEL,
    name: module.name,
    logger: deps.logger,
    trustProxy: true,
    loadShedding: loadSheddingFrom(deps.config),
  });
  await app.register(authGuard, { tokens: deps.tokens });
  // The service's own routes as OpenAPI, outside /api: the distributed gateway merges every
  // service's document into /api/docs.
  await app.register(swagger, {
    openapi: { info: { title: `Earshot ${module.name} service`, version: '1.0.0' } },
    transform: jsonSchemaTransform,
  });
  app.get(SERVICE_OPENAPI_PATH, { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());
  registerProbes(app, deps.database, '', () => joined);
  registerMetricsRoute(app, deps.config.METRICS_TOKEN);
  // Until its consumers have joined it does not yet know of ended sessions (nor hold its events), so
  // it serves nothing but its probes, metrics and route document: a caller (a proxy that routes
  // without readiness) is told to come back instead of being served on a session it should refuse.
  app.addHook('onRequest', async (request) => {
    if (!joined && !SERVED_BEFORE_JOIN.has(request.routeOptions.url ?? ''))
      throw serviceUnavailable('The service is starting, try again shortly', 1);
  });
  await deps.bus.subscribe(sessionEndSubscription(deps.tokens, module.name));
  await checkApiKeysRemotely(deps.tokens.apiKeys, deps.config, deps.bus, module.name, deps.logger);
  const running = await mountServices(app, [module], deps);
  const internal = module.internalRoutes;
  if (internal) await app.register(async (scope) => internal(scope, running.contexts.get(module.name)!));
  await app.ready();
  try {
    await startServices([module], running);
  } catch (error) {
    // A service that refuses to start (a missing setting) leaves no relay polling behind.
    await running.stop();
    await app.close();
    throw error;
  }
  return {
    app,
    running,
    async joinBus() {
      await deps.bus.start();
      joined = true;
    },
  };
}

/**
 * Runs one service as its own process (distributed mode): it normally needs DATABASE_URL and
 * KAFKA_BROKERS, and verifies sessions with the auth service's public keys (AUTH_JWKS_URL).
 * Refuses to start, clearly, when configuration is wrong.
 */
export async function runStandalone(module: ServiceModule): Promise<void> {
  let config: BaseConfig;
  try {
    config = loadConfig(configSchemaFor([module])) as BaseConfig;
  } catch (error) {
    console.error(`${module.name} service cannot start. ${(error as Error).message}`);
    process.exit(1);
  }
  const logger = createLogger(config.LOG_LEVEL, module.name);
  const stopTelemetry = await startTelemetry(
    config.OTEL_EXPORTER_OTLP_ENDPOINT,
    config.OTEL_SERVICE_NAME ?? `earshot-${module.name}`,
    module.name,
  );
  if (!config.KAFKA_BROKERS) logger.warn('KAFKA_BROKERS is not set: events stay inside this process');
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: `${config.DATA_DIR}/${module.name}` });
  const bus = createBus(config, logger);
  // The auth service trusts its own keys when mounted (never fetched); other keys come from its JWKS.
  const tokens = new TokenVerifier(config.ACCESS_TOKEN_TTL_SECONDS, {
    jwksUrl: config.AUTH_JWKS_URL ?? 'http://auth:3000/api/auth/jwks',
  });
  const { app, running, joinBus } = await prepareServiceApp(module, { config, database, bus, logger, tokens });
  await app.listen({ host: config.HOST, port: config.PORT });
  const shutdown = async () => {
    await app.close();
    await running.stop();
    await bus.stop();
    await database.close();
    await stopTelemetry();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
  // The broker holds a new group's join for its rebalance delay (3 s by default): alive meanwhile,
  // ready (and so sent traffic) once joined.
  try {
    await joinBus();
  } catch (error) {
    logger.fatal({ err: error }, 'could not join the event bus');
    process.exit(1);
  }
}
