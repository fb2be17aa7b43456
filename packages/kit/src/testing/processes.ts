import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { TokenVerifier } from '../auth';
import type { MemoryBus } from '../bus';
import type { BaseConfig } from '../config';
import type { Database } from '../db/database';
import type { ServiceModule } from '../module';
import type { RunningServices } from '../runtime';
import { buildServiceApp, configSchemaFor } from '../standalone';
import { openTestDatabase } from './database';
import { TEST_JWT_SECRET, TEST_SECRETS_KEY } from './secrets';

export interface ServiceProcess {
  app: FastifyInstance;
  /** Where it listens (127.0.0.1, a free port). */
  url: string;
}

/**
 * Services started as distributed mode runs them (each its own app, port, database handle and
 * token verifier trusting `jwks`), sharing only `bus`: for tests of service-to-service calls.
 */
export function serviceProcesses(
  bus: MemoryBus,
  logger: Logger,
  verifierFor: () => TokenVerifier = () => new TokenVerifier(900),
) {
  const opened: { app: FastifyInstance; running: RunningServices; database: Database }[] = [];
  return {
    async start(module: ServiceModule, env: Record<string, string>): Promise<ServiceProcess> {
      const database = await openTestDatabase();
      try {
        const config = configSchemaFor([module]).parse({
          NODE_ENV: 'test',
          LOG_LEVEL: 'silent',
          JWT_SECRET: TEST_JWT_SECRET,
          SECRETS_KEY: TEST_SECRETS_KEY,
          OUTBOX_POLL_MS: '50',
          ...env,
        }) as BaseConfig;
        const { app, running } = await buildServiceApp(module, {
          config,
          database,
          bus,
          logger,
          tokens: verifierFor(),
        });
        opened.push({ app, running, database });
        await app.listen({ host: '127.0.0.1', port: 0 });
        return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
      } catch (error) {
        if (!opened.some((o) => o.database === database)) await database.close();
        throw error;
      }
    },
    /** Publishes every outbox and lets every consumer finish, a few rounds (events cause events). */
    async settle(): Promise<void> {
      for (let i = 0; i < 3; i++) {
        for (const { running } of opened) await running.flush();
        await bus.idle();
      }
    },
    async close(): Promise<void> {
      for (const { app, running, database } of opened.reverse()) {
        await app.close();
        await running.stop();
        await database.close();
      }
      await bus.stop();
    },
  };
}
