import type { AddressInfo } from 'node:net';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { authService } from '@earshot/auth-service';
import {
  MemoryBus,
  TokenSigner,
  TokenVerifier,
  buildServiceApp,
  createLogger,
  loadConfig,
  type Database,
  type ServiceModule,
} from '@earshot/kit';
import {
  TEST_JWT_SECRET,
  TEST_SECRETS_KEY,
  openTestDatabase,
  testSigningKeyPem,
  testSigningKeys,
} from '@earshot/kit/testing';
import { createDistributedGateway, distributedConfigSchema, type DistributedConfig } from '../src/proxy';
import { pathEcho } from './path-echo';

// The dashboards live in two services. In distributed mode the gateway must send
// /api/dashboards/saas to tenant (its more specific prefix) and every other /api/dashboards path
// to prompt, from the contracts' table alone, as /ai/speech-models goes to transcription.
const env = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  AUTH_SIGNING_KEY: testSigningKeyPem(),
  JWT_SECRET: TEST_JWT_SECRET,
  SECRETS_KEY: TEST_SECRETS_KEY,
  ADMIN_PASSWORD: 'platform-admin-password',
};

interface Upstream {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}
const started: Upstream[] = [];

async function startUpstream(module: ServiceModule): Promise<Upstream> {
  const config = loadConfig(distributedConfigSchema.extend(module.configShape ?? {}), env) as DistributedConfig;
  const database: Database = await openTestDatabase();
  const bus = new MemoryBus();
  const verifier = new TokenVerifier(900).trust(new TokenSigner(testSigningKeys(), 900).jwks());
  const { app, running } = await buildServiceApp(module, {
    config,
    database,
    bus,
    logger: createLogger('silent'),
    tokens: verifier,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const upstream = {
    app,
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    async close() {
      await app.close();
      await running.stop();
      await bus.stop();
      await database.close();
    },
  };
  started.push(upstream);
  return upstream;
}

afterAll(async () => {
  for (const upstream of started.reverse()) await upstream.close();
}, 60_000);

test("/api/dashboards/saas goes to tenant while the rest of /api/dashboards is prompt's", async () => {
  const auth = await startUpstream(authService as ServiceModule);
  const tenant = await startUpstream(pathEcho('tenant'));
  const prompt = await startUpstream(pathEcho('prompt'));
  const config = loadConfig(distributedConfigSchema, {
    ...env,
    AUTH_SERVICE_URL: auth.url,
    TENANT_SERVICE_URL: tenant.url,
    PROMPT_SERVICE_URL: prompt.url,
  });
  const gateway = await createDistributedGateway(config, [pathEcho('prompt'), pathEcho('tenant')], {
    logger: createLogger('silent'),
    readyTimeoutMs: 1000,
  });
  try {
    const answeredBy = async (url: string) =>
      (
        (await gateway.app.inject({ method: 'GET', url } satisfies InjectOptions)).json() as {
          service: string;
          url: string;
        }
      ).service;
    expect(await answeredBy('/api/dashboards/saas')).toBe('tenant');
    expect(await answeredBy('/api/dashboards/analytics?groupBy=week')).toBe('prompt');
    expect(await answeredBy('/api/dashboards/scorecards')).toBe('prompt');
    expect(await answeredBy('/api/dashboards/calls')).toBe('prompt');
    expect(await answeredBy('/api/dashboards/crm')).toBe('prompt');
    expect(await answeredBy('/api/dashboards/saas-elsewhere')).toBe('prompt');
  } finally {
    await gateway.app.close();
  }
}, 120_000);
