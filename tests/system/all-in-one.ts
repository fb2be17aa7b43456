import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '@earshot/kit';
import { openTestDatabase } from '@earshot/kit/testing';
import { createAllInOne, type AllInOne } from '@earshot/gateway';

export interface ApiProduct {
  earshot: AllInOne;
  database: Database;
  /** The data folder the product keeps its files in (removed by close). */
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The whole product in one process, as `npm start` composes it, on the test database and a fresh
 * data folder. WEB_DIST points at that empty folder because these suites call the API, not the
 * built web app; no demo seed and no ENCRYPTION_MASTER_KEY unless `env` adds them.
 */
export async function startApiProduct(
  name: string,
  admin: { email: string; password: string },
  env: Record<string, string> = {},
): Promise<ApiProduct> {
  const dataDir = mkdtempSync(join(tmpdir(), `earshot-${name}-`));
  const database = await openTestDatabase();
  const earshot = await createAllInOne({
    database,
    env: {
      SEED_DEMO: 'false',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      WEB_DIST: dataDir,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      OUTBOX_POLL_MS: '50',
      ...env,
    },
  });
  return {
    earshot,
    database,
    dataDir,
    async close() {
      await earshot.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
