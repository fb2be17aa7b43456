import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Role } from '@earshot/contracts';
import type { BaseConfig } from '../config';
import { createLogger, type Logger } from '../logger';
import type { Database } from '../db/database';
import { MemoryBus } from '../bus/memory';
import { TokenSigner, TokenVerifier, authGuard, CSRF_HEADER } from '../auth';
import { testSigningKeys } from './keys';
import { buildServer } from '../server';
import { mountServices, startServices, type RunningServices } from '../runtime';
import { configSchemaFor } from '../standalone';
import type { ServiceModule } from '../module';
import { openTestDatabase } from './database';
import { TEST_JWT_SECRET, TEST_SECRETS_KEY } from './secrets';

export interface TestStack {
  app: FastifyInstance;
  database: Database;
  bus: MemoryBus;
  running: RunningServices;
  /** The verifier every mounted service shares (it trusts the test signer and the auth service's keys). */
  tokens: TokenVerifier;
  /** Mints tokens for made-up callers: a key of the test's own, which only this stack's verifier trusts. */
  signer: TokenSigner;
  config: BaseConfig & Record<string, unknown>;
  dataDir: string;
  /** Publishes every outbox and waits until all consumers are done. */
  settle(): Promise<void>;
  /** A bearer token for a made-up caller (no user row): for access and isolation checks. */
  tokenFor(role: Role, companyId: string | null, userId?: string): Promise<string>;
  /** inject() with a bearer token and the CSRF header set. */
  as(token: string | null, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * Some service modules mounted on a bare server (guard, error format) with a fresh test database,
 * the in-memory bus and a temporary DATA_DIR. Use it to test a service; the full composition is
 * tested through the gateway's createAllInOne.
 */
export async function createTestStack(
  modules: readonly ServiceModule[],
  env: Record<string, string> = {},
  options: { logger?: Logger; database?: Database } = {},
): Promise<TestStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'earshot-test-'));
  const schema = configSchemaFor(modules);
  const config = schema.parse({
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    JWT_SECRET: TEST_JWT_SECRET,
    SECRETS_KEY: TEST_SECRETS_KEY,
    OUTBOX_POLL_MS: '50',
    ...env,
  }) as BaseConfig & Record<string, unknown>;
  // A test that must see what is logged (that no secret is) passes its own logger.
  const logger = options.logger ?? createLogger(config.LOG_LEVEL, 'test');
  // A benchmark brings its own (a larger pool); tests get a fresh one each.
  const database = options.database ?? (await openTestDatabase());
  const bus = new MemoryBus(logger);
  const signer = new TokenSigner(testSigningKeys(), config.ACCESS_TOKEN_TTL_SECONDS);
  const tokens = new TokenVerifier(config.ACCESS_TOKEN_TTL_SECONDS).trust(signer.jwks());
  const app = buildServer({ logLevel: 'silent', name: 'test', logger });
  await app.register(authGuard, { tokens });
  const running = await mountServices(app, modules, { config, database, bus, logger, tokens });
  await app.ready();
  await startServices(modules, running);
  await bus.start();
  const settle = async () => {
    for (let i = 0; i < 5; i++) {
      await running.flush();
      await bus.idle();
    }
  };
  return {
    app,
    database,
    bus,
    running,
    tokens,
    signer,
    config,
    dataDir,
    settle,
    tokenFor: (role, companyId, userId = crypto.randomUUID()) =>
      signer.sign({ userId, companyId, role, email: `${role.toLowerCase()}@test.local` }),
    as: (token, options) =>
      app.inject({
        ...options,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          [CSRF_HEADER]: 'XMLHttpRequest',
          ...(options.headers ?? {}),
        },
      }),
    async close() {
      await app.close();
      await running.stop();
      await bus.stop();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
