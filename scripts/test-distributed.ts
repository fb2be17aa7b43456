/**
 * npm run test:distributed — the whole system as separate processes: what
 * docker-compose.yml starts, run here as local processes with the same entrypoints and environment,
 * driven through the gateway's HTTP only, with three processes killed (kill -9) and restarted on
 * the way, and last a backlog drained by one, then two, then three transcription workers. Exits non-zero on any failed check; ends every process it started, by pid, and drops its
 * database, also when a check fails. See scripts/distributed/ and docs/development.md ("The distributed suite").
 *
 * Needs: PostgreSQL (DATABASE_URL, a superuser; default postgres://postgres@127.0.0.1:5432/postgres),
 * Redis (REDIS_URL, default redis://127.0.0.1:6379), kcat, espeak-ng, sox, ffmpeg, pocketsphinx.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureServersBuilt } from './build.mjs';
import { scenario } from './distributed/scenario';
import { Steps } from './distributed/steps';
import { System } from './distributed/system';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Each process runs its compiled entrypoint, as compose does: built here when missing or stale.
const built = ensureServersBuilt();
if (built !== 0) process.exit(built);
const system = new System({
  root,
  databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
});
const steps = new Steps();

let failed = false;
const interrupted = () => {
  // Ctrl-C still ends what was started: the finally below runs once the current step throws.
  failed = true;
  void system.stop().finally(() => process.exit(130));
};
process.once('SIGINT', interrupted);
process.once('SIGTERM', interrupted);

try {
  await scenario(system, steps);
} catch (error) {
  failed = true;
  console.error(`\nFAILED: ${(error as Error).stack ?? String(error)}`);
  console.error(`Process logs: ${system.dir} (kept)`);
  process.env.DISTRIBUTED_KEEP_LOGS = '1';
} finally {
  try {
    await system.stop();
  } catch (error) {
    failed = true;
    console.error(`Cleaning up failed: ${(error as Error).message}`);
  }
}
console.log(`\n${steps.summary()}`);
console.log(failed ? '\nDistributed suite FAILED' : '\nDistributed suite passed');
process.exit(failed ? 1 : 0);
