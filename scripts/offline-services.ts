// What the maintenance commands (`npm run events`, `npm run models`) share: the services' own
// environment and their modules mounted on the database without traffic — nothing listens, the bus
// is never started, and events the command causes wait in the outbox for the service's own relay.
import {
  MemoryBus,
  TokenVerifier,
  buildServer,
  configSchemaFor,
  createLogger,
  loadConfig,
  mountServices,
  openDatabase,
  resolveSecrets,
  type BaseConfig,
  type Database,
  type RunningServices,
  type ServiceModule,
} from '@earshot/kit';

/** The modules' configuration from `env`, with the secrets the services would use. */
export function commandConfig(modules: readonly ServiceModule[], env: NodeJS.ProcessEnv): BaseConfig {
  const parsed = loadConfig(configSchemaFor(modules), env) as BaseConfig;
  const secrets = resolveSecrets(parsed.DATA_DIR, parsed);
  return { ...parsed, JWT_SECRET: secrets.jwtSecret, SECRETS_KEY: secrets.secretsKey };
}

/** Opens the database the configuration names (unless given one) and mounts the modules on it. */
export async function mountOffline(
  name: string,
  modules: readonly ServiceModule[],
  config: BaseConfig,
  given?: Database,
): Promise<{ database: Database; running: RunningServices }> {
  const logger = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL, name);
  const database = given ?? (await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR }));
  const running = await mountServices(buildServer({ logLevel: 'silent', name, logger }), modules, {
    config,
    database,
    bus: new MemoryBus(logger),
    logger,
    tokens: new TokenVerifier(config.ACCESS_TOKEN_TTL_SECONDS),
  });
  return { database, running };
}
