import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Envelope } from '@earshot/contracts';
import type { BaseConfig } from './config';
import type { Database, Db } from './db/database';
import type { Migration } from './db/migrate';
import type { EventBus } from './bus/types';
import type { HandlerSpec } from './bus/handlers';
import type { TokenVerifier } from './auth';
import type { NewEvent } from './outbox';
import type { ScrapedSource } from './metrics';

export interface ServiceContext<C extends BaseConfig = BaseConfig> {
  readonly name: string;
  readonly schema: string;
  readonly config: C;
  readonly database: Database;
  readonly db: Db;
  readonly bus: EventBus;
  readonly logger: Logger;
  /** Verifies access tokens (public keys only) and keeps the ended sessions. */
  readonly tokens: TokenVerifier;
  /**
   * Runs `fn` in one transaction; events it emits go to the outbox in that same transaction and are
   * published right after commit. Inside, use only `tx` (PGlite has one connection: `db` would wait).
   */
  transact<T>(fn: (tx: Db, emit: (event: NewEvent) => void) => Promise<T>): Promise<T>;
  /**
   * Handles events at most once for `consumer` (see applyOnce): `fn` gets the transaction and the
   * events not applied before (it is not called when there are none).
   */
  applyOnce(
    consumer: string,
    envelopes: readonly Envelope[],
    fn: (tx: Db, emit: (event: NewEvent) => void, fresh: Envelope[]) => Promise<void>,
  ): Promise<void>;
}

/**
 * A service as a unit of composition: the all-in-one process starts every module in one Fastify
 * app; a distributed process starts one. Same routes, migrations and handlers either way.
 */
export interface ServiceModule<C extends BaseConfig = BaseConfig> {
  readonly name: string;
  /** Its own PostgreSQL schema: no other service reads these tables. */
  readonly schema: string;
  /** URL prefixes under /api that the gateway routes to it. */
  readonly prefixes: readonly string[];
  readonly migrations: readonly Migration[];
  /** Extra environment keys this service reads, validated at start with the base ones. */
  readonly configShape?: z.ZodRawShape;
  routes(app: FastifyInstance, ctx: ServiceContext<C>): Promise<void>;
  /**
   * Routes for other services only (paths under /internal), on the service's own app in
   * distributed mode: never mounted in all-in-one (services call each other in-process there)
   * and never proxied by the gateway. Each route authenticates its caller itself.
   */
  internalRoutes?(app: FastifyInstance, ctx: ServiceContext<C>): Promise<void>;
  /**
   * The events it handles, e.g. `[on('company.created', async (event, tx, emit) => …)]`: the kit
   * groups them into one consumer (group and ledger named after the service), derives the topics
   * from the catalogue, parses and upcasts each event, and parks one whose handler keeps failing.
   */
  subscriptions?(ctx: ServiceContext<C>): HandlerSpec[];
  /** What it reports on /metrics from its own tables, read when Prometheus scrapes. */
  metrics?(ctx: ServiceContext<C>): ScrapedSource[];
  /** After migrations and routes, before traffic: seeding, workers. */
  start?(ctx: ServiceContext<C>): Promise<void>;
  stop?(ctx: ServiceContext<C>): Promise<void>;
}

export function defineService<C extends BaseConfig = BaseConfig>(module: ServiceModule<C>): ServiceModule<C> {
  return module;
}
