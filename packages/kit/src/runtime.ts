import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { BaseConfig } from './config';
import type { Database, Db } from './db/database';
import { migrate } from './db/migrate';
import type { EventBus } from './bus/types';
import type { RouteRecord, TokenVerifier } from './auth';
import { applyOnce, kitMigrations, OutboxRelay, writeOutbox, type NewEvent } from './outbox';
import type { ServiceContext, ServiceModule } from './module';
import { EventConsumer } from './bus/handlers';
import { FeatureSwitches, featureSwitchMigrations, gatedPrefixes } from './features';
import { watchConsumerLag, watchServiceEvents, watchSources } from './event-metrics';
import { inService } from './tracing';

export interface RuntimeDeps {
  config: BaseConfig;
  database: Database;
  bus: EventBus;
  logger: Logger;
  tokens: TokenVerifier;
}

export interface RunningServices {
  contexts: Map<string, ServiceContext>;
  relays: OutboxRelay[];
  /** Each service's event consumer (by service name), for listing and replaying parked events. */
  consumers: Map<string, EventConsumer>;
  /** Publishes every outbox now (tests and seeding use it to avoid waiting for a poll). */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

function createContext(module: ServiceModule, deps: RuntimeDeps, relay: OutboxRelay): ServiceContext {
  const { database } = deps;
  const logger = deps.logger.child({ service: module.name });
  const transact: ServiceContext['transact'] = async (fn) => {
    const events: NewEvent[] = [];
    const result = await database.db.transaction(async (tx) => {
      const value = await fn(tx as unknown as Db, (e) => events.push(e));
      if (events.length) await writeOutbox(tx as unknown as Db, module.schema, events);
      return value;
    });
    if (events.length) relay.nudge();
    return result;
  };
  return {
    name: module.name,
    schema: module.schema,
    config: deps.config,
    database,
    db: database.db,
    bus: deps.bus,
    logger,
    tokens: deps.tokens,
    transact,
    async applyOnce(consumer, envelopes, fn) {
      const events: NewEvent[] = [];
      await applyOnce(database.db, module.schema, consumer, envelopes, async (tx, fresh) => {
        await fn(tx, (e) => events.push(e), fresh);
        if (events.length) await writeOutbox(tx, module.schema, events);
      });
      if (events.length) relay.nudge();
    },
  };
}

/**
 * Migrates, mounts and starts service modules on one Fastify app under /api. Call before
 * `app.ready()`; call `bus.start()` after, once every module has subscribed.
 */
export async function mountServices(
  app: FastifyInstance,
  modules: readonly ServiceModule[],
  deps: RuntimeDeps,
): Promise<RunningServices> {
  const contexts = new Map<string, ServiceContext>();
  const relays: OutboxRelay[] = [];
  const consumers = new Map<string, EventConsumer>();
  const unwatch = [watchConsumerLag(deps.bus, deps.logger)];
  for (const module of modules) {
    // A service answering a switchable feature's routes keeps the switches and enforces them itself.
    const gated = gatedPrefixes(module.prefixes).length > 0;
    await migrate(deps.database, module.schema, [
      ...kitMigrations,
      ...(gated ? featureSwitchMigrations() : []),
      ...module.migrations,
    ]);
    const relay = new OutboxRelay(
      deps.database,
      module.schema,
      deps.bus,
      deps.config.OUTBOX_POLL_MS,
      deps.logger,
      module.name,
    );
    unwatch.push(watchServiceEvents(deps.database, module.name, module.schema, deps.logger));
    const ctx = createContext(module, deps, relay);
    contexts.set(module.name, ctx);
    if (module.metrics) unwatch.push(watchSources(module.metrics(ctx), ctx.logger));
    relays.push(relay);
    const switches = gated ? new FeatureSwitches(ctx.db, module.schema) : null;
    // Which service registered each route: the distributed gateway must send it there (the route
    // matrix holds the contracts' routing table to it).
    const registry = (app as { routeRegistry?: RouteRecord[] }).routeRegistry;
    const before = registry?.length ?? 0;
    await app.register(
      async (scope) => {
        // Each handler runs as this service's work, so its spans say which service they belong to.
        scope.addHook('onRoute', (route) => {
          const handler = route.handler;
          route.handler = function (this: FastifyInstance, ...args: Parameters<typeof handler>) {
            return inService(module.name, () => handler.apply(this, args));
          };
        });
        switches?.gate(scope, module.prefixes);
        await module.routes(scope, ctx);
      },
      { prefix: '/api' },
    );
    for (const route of registry?.slice(before) ?? []) route.service ??= module.name;
    const handlers = [...(module.subscriptions?.(ctx) ?? []), ...(switches?.handlers() ?? [])];
    if (handlers.length > 0) {
      const consumer = new EventConsumer(ctx, module.name, handlers, deps.config.EVENT_MAX_ATTEMPTS);
      consumers.set(module.name, consumer);
      await deps.bus.subscribe(consumer.subscription());
    }
  }
  return {
    contexts,
    relays,
    consumers,
    async flush() {
      for (const relay of relays) await relay.publishPending();
    },
    async stop() {
      unwatch.forEach((stopWatching) => stopWatching());
      await Promise.all(relays.map((r) => r.stop()));
      for (const module of modules) await module.stop?.(contexts.get(module.name)!);
    },
  };
}

/** Starts relays and each module's own start hook (seeding, workers). */
export async function startServices(modules: readonly ServiceModule[], running: RunningServices): Promise<void> {
  running.relays.forEach((r) => r.start());
  // Workers started here keep the service in their context (timers and promises inherit it).
  for (const module of modules) await inService(module.name, () => module.start?.(running.contexts.get(module.name)!));
}
