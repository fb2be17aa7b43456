import { ConfigError, createLogger, loadConfig, startTelemetry } from '@earshot/kit';
import { createDistributedGateway, distributedConfigSchema, type DistributedConfig } from './proxy';

// `npm run start -w gateway`: the gateway of distributed mode. Every service runs as its own process
// (`npm run start -w services/<name>`); this one verifies sessions, applies the security layer and
// proxies /api/<prefix> to the owning service (AUTH_SERVICE_URL, TENANT_SERVICE_URL, ...), with the
// contracts' table of prefixes alone: no service code is loaded here.
let config: DistributedConfig;
try {
  config = loadConfig(distributedConfigSchema);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`Earshot gateway cannot start. ${error.message}`);
  process.exit(1);
}

const logger = createLogger(config.LOG_LEVEL, 'gateway');
const stopTelemetry = await startTelemetry(
  config.OTEL_EXPORTER_OTLP_ENDPOINT,
  config.OTEL_SERVICE_NAME ?? 'earshot-gateway',
  'gateway',
);
const { app, upstreams } = await createDistributedGateway(config, undefined, { logger });
await app.listen({ host: config.HOST, port: config.PORT });
logger.info(
  { upstreams: upstreams.map((u) => ({ service: u.service, url: u.url, prefixes: u.prefixes })) },
  'gateway routing to services',
);

const shutdown = async () => {
  await app.close();
  await stopTelemetry();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown());
process.once('SIGINT', () => void shutdown());
