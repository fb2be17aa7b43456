import { randomBytes } from 'node:crypto';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import {
  TokenSigner,
  TokenVerifier,
  configSchemaFor,
  createBus,
  createLogger,
  loadConfig,
  mountServices,
  openDatabase,
  resolveSecrets,
  resolveSigningKeys,
  serveDatabaseSnapshots,
  assertDataDirFree,
  startServices,
  MemoryBus,
  type BaseConfig,
  type Database,
  type EventBus,
  type Logger,
  type RunningServices,
  type Secrets,
} from '@earshot/kit';
import { buildGateway, gatewayOptionsFrom } from './app';
import { gatewayConfigShape } from './config';
import type { z } from 'zod';

type GatewayConfig = z.infer<z.ZodObject<typeof gatewayConfigShape>>;
import { ALL_SERVICES } from './modules';
import { seedDemo, type DemoSeed } from './seed';

export const allInOneConfigSchema = configSchemaFor(ALL_SERVICES).extend(gatewayConfigShape);

export interface AllInOne {
  app: FastifyInstance;
  config: BaseConfig & Record<string, unknown>;
  database: Database;
  bus: EventBus;
  running: RunningServices;
  tokens: TokenVerifier;
  /** The auth service's key, which this one process holds: seeding and tests mint platform tokens with it. */
  signer: TokenSigner;
  demo: DemoSeed | null;
  /** Publishes pending events and waits until every in-process consumer has handled them. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export interface AllInOneOptions {
  env?: NodeJS.ProcessEnv;
  database?: Database;
  logger?: Logger;
  secrets?: Secrets;
}

const defaultWebDist = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'dist');

/**
 * The all-in-one composition: the gateway with every service mounted in-process, one database
 * (each service in its own schema), the in-process bus (or Kafka when KAFKA_BROKERS is set).
 */
export async function createAllInOne(options: AllInOneOptions = {}): Promise<AllInOne> {
  const parsed = loadConfig(allInOneConfigSchema, options.env ?? process.env) as unknown as BaseConfig & GatewayConfig;
  const secrets = options.secrets ?? resolveSecrets(parsed.DATA_DIR, parsed);
  const config = { ...parsed, JWT_SECRET: secrets.jwtSecret, SECRETS_KEY: secrets.secretsKey } as BaseConfig &
    typeof parsed;
  const logger = options.logger ?? createLogger(config.LOG_LEVEL, 'earshot');
  // The embedded database in DATA_DIR is this process's alone (PGlite must never open it twice), and
  // `npm run backup` asks this process for its snapshots.
  if (!options.database && !config.DATABASE_URL) await assertDataDirFree(config.DATA_DIR);
  const database = options.database ?? (await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR }));
  const stopSnapshots =
    !options.database && database.kind === 'pglite' ? await serveDatabaseSnapshots(database, config.DATA_DIR) : null;
  const bus = createBus(config, logger);
  // The same key file the auth module signs with (DATA_DIR, or AUTH_SIGNING_KEY): the gateway and
  // every in-process service only verify, and learn of ended sessions at the auth commit.
  const signer = new TokenSigner(
    await resolveSigningKeys(config.DATA_DIR, config.ACCESS_TOKEN_TTL_SECONDS, config as never),
    config.ACCESS_TOKEN_TTL_SECONDS,
  );
  const tokens = new TokenVerifier(config.ACCESS_TOKEN_TTL_SECONDS);

  const app = await buildGateway(gatewayOptionsFrom(config, logger, tokens, config.WEB_DIST ?? defaultWebDist));
  app.get('/api/health', { config: { access: 'public' } }, async () => ({
    status: 'ok',
    mode: 'all-in-one',
    services: ALL_SERVICES.map((s) => s.name),
  }));
  app.get('/api/ready', { config: { access: 'public' } }, async (_request, reply) => {
    try {
      await database.query('select 1');
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'unavailable', message: 'database unreachable' });
    }
  });

  const running = await mountServices(app, ALL_SERVICES, { config, database, bus, logger, tokens });
  await app.ready();
  await startServices(ALL_SERVICES, running);
  await bus.start();

  const settle = async () => {
    await running.flush();
    if (bus instanceof MemoryBus) await bus.idle();
  };

  let demo: DemoSeed | null = null;
  if (config.SEED_DEMO) {
    demo = await seedDemo(app, signer, config.DEMO_PASSWORD ?? randomBytes(9).toString('base64url'), settle);
  }

  return {
    app,
    config,
    database,
    bus,
    running,
    tokens,
    signer,
    demo,
    settle,
    async close() {
      await app.close();
      await running.stop();
      await bus.stop();
      await stopSnapshots?.();
      if (!options.database) await database.close();
    },
  };
}
