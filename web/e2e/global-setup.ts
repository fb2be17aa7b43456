import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEMPLATE_DATABASE, TEMPLATE_DATA_DIR, createDatabase, runServer } from './server';

// With a PostgreSQL server (DATABASE_URL, as in CI), the server starts once here on a database of
// its own, which migrates it and seeds the demo company; each suite then starts on a copy of that
// database and data folder (CREATE DATABASE ... TEMPLATE), a few seconds instead of migrating and
// seeding embedded PGlite every time (see docs/development.md). The names reach the test workers
// through the environment they inherit.
declare global {
  var earshotE2eTemplate: { dataDir: string; drop(): Promise<void> } | undefined;
}

export default async function setup(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl || process.env.E2E_ORIGIN) return;
  const dataDir = await mkdtemp(join(tmpdir(), 'earshot-e2e-template-'));
  const database = await createDatabase(serverUrl, 'earshot_e2e_template');
  globalThis.earshotE2eTemplate = { dataDir, drop: database.drop };
  try {
    const server = await runServer(dataDir, { DATABASE_URL: database.url }, async () => undefined);
    await server.stop();
  } catch (error) {
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
    globalThis.earshotE2eTemplate = undefined;
    throw error;
  }
  process.env[TEMPLATE_DATABASE] = database.name;
  process.env[TEMPLATE_DATA_DIR] = dataDir;
}
