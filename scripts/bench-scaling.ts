/**
 * `npm run bench:scaling`: how long a fixed backlog of transcription jobs takes to drain with 1, 2
 * and 3 stand-alone worker processes (figures for docs/performance.md and the README). Each round
 * starts its workers (`services/transcription/dist/worker.js`, compiled as k8s runs them, one job at a time
 * each) on a throwaway PostgreSQL database, waits until they are ready, then queues BENCH_BACKLOG
 * (default 12) espeak-ng stereo calls across three companies in one transaction, and times the
 * commit until the last job is completed. Printed with the completions per worker, CPU seconds and
 * the machine's load: wall times on a shared 2-core machine say little on their own.
 *
 * Needs DATABASE_URL (a PostgreSQL server and a superuser; the workers share one database), espeak-ng,
 * sox, ffmpeg and pocketsphinx. Only the workers run: the audio is written to their object store
 * and the jobs into their queue directly, as the file and transcription services would.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  COMPANY_AUDIO_KEY_PATH,
  createStorage,
  INTERNAL_TOKEN_HEADER,
  kitMigrations,
  migrate,
  openDatabase,
} from '@earshot/kit';
import { asSuperuser, databaseUrl } from '../deploy/db-roles';
import { migrations } from '../services/transcription/src/db/migrations';
import { stereoCall } from './distributed/audio';
import { ensureServersBuilt } from './build.mjs';
import { freePorts, Processes, waitFor } from './distributed/processes';

const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 12);
const ROUNDS = (process.env.BENCH_WORKERS ?? '1,2,3').split(',').map(Number);
const COMPANIES = Array.from({ length: 3 }, () => randomUUID());
const serverUrl = process.env.DATABASE_URL ?? '';
if (!serverUrl) {
  console.error('bench:scaling needs DATABASE_URL: a PostgreSQL server the worker processes share');
  process.exit(1);
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = mkdtempSync(join(tmpdir(), 'earshot-bench-scaling-'));
const databaseName = `earshot_bench_scaling_${Date.now()}_${randomBytes(3).toString('hex')}`;
const workersUrl = databaseUrl(serverUrl, databaseName);
const dataDir = join(dir, 'data');
const INTERNAL_API_TOKEN = randomBytes(24).toString('hex');

const admin = (statement: string) => asSuperuser(serverUrl, 'postgres', (c) => c.query(statement));

/**
 * What the file service's internal route answers for a company that never turned encryption on
 * (404: no key, its recordings are plain): the workers ask it before reading a recording.
 */
async function noAudioKeys(): Promise<{ server: Server; url: string }> {
  const pattern = new RegExp(`^${COMPANY_AUDIO_KEY_PATH.replace(':companyId', '[0-9a-f-]+')}$`);
  const server = createServer((request, response) => {
    const known = pattern.test(request.url ?? '') && request.headers[INTERNAL_TOKEN_HEADER] === INTERNAL_API_TOKEN;
    response.writeHead(known ? 404 : 401, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ message: known ? 'No key' : 'Unauthorized' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}` };
}

const cpuSeconds = () => {
  const total = cpus().reduce((sum, c) => sum + c.times.user + c.times.sys + c.times.nice, 0);
  return total / 1000;
};

await admin(`create database ${databaseName}`);
const database = await openDatabase({ url: workersUrl, poolSize: 2 });
const keys = await noAudioKeys();
// A set of processes (and their log files) per round.
let processes = new Processes(root, dir);
const rows: string[] = [];
try {
  await migrate(database, 'transcription', [...kitMigrations, ...migrations]);
  const call = stereoCall(2);
  const storage = createStorage({ STORAGE_DRIVER: 'local', DATA_DIR: dataDir } as Parameters<typeof createStorage>[0]);
  // Stored under each company's prefix, as the file service stores a company's recordings.
  const storageKey = (company: string) => `${company}/backlog-call.wav`;
  for (const company of COMPANIES)
    await storage.put(storageKey(company), Readable.from(call.data), { contentType: 'audio/wav' });
  console.log(
    `backlog: ${BACKLOG} stereo calls of ${call.duration.toFixed(1)} s (espeak-ng), ${COMPANIES.length} companies; ` +
      `workers run one job at a time (TRANSCRIPTION_CONCURRENCY=1), PocketSphinx; ${cpus().length} CPUs`,
  );

  // The workers run compiled, as in production: built here when missing or stale.
  if (ensureServersBuilt() !== 0) throw new Error('The build failed');
  for (const workers of ROUNDS) {
    const names = Array.from({ length: workers }, (_, i) => `worker-${workers}-${i + 1}`);
    const logs = join(dir, `round-${workers}`);
    mkdirSync(logs);
    processes = new Processes(root, logs);
    const ports = await freePorts(workers);
    await Promise.all(
      names.map((name, i) =>
        processes.start(
          {
            name,
            cwd: 'services/transcription',
            entry: 'dist/worker.js',
            readyUrl: `http://127.0.0.1:${ports[i]}/ready`,
            env: {
              NODE_ENV: 'production',
              LOG_LEVEL: 'warn',
              HOST: '127.0.0.1',
              PORT: String(ports[i]),
              DATABASE_URL: workersUrl,
              DATA_DIR: dataDir,
              JWT_SECRET: randomBytes(32).toString('hex'),
              SECRETS_KEY: randomBytes(32).toString('hex'),
              INTERNAL_API_TOKEN,
              FILE_SERVICE_URL: keys.url,
              // No AI model is configured: the prompt service is never asked.
              PROMPT_SERVICE_URL: 'http://127.0.0.1:9',
              AUTH_JWKS_URL: 'http://127.0.0.1:9/api/auth/jwks',
              SPEECH_MODELS_URL: 'http://127.0.0.1:9',
              SPEECH_DIARIZATION_URL: 'http://127.0.0.1:9',
              TRANSCRIPTION_ENGINE: 'pocketsphinx',
              TRANSCRIPTION_CONCURRENCY: '1',
              TRANSCRIPTION_POLL_MS: '200',
            },
          },
          180_000,
        ),
      ),
    );
    const pids = new Map(names.map((name) => [name, processes.pid(name)]));

    const fileIds = Array.from({ length: BACKLOG }, () => randomUUID());
    const values = fileIds.map((_, i) => `($${i * 3 + 1}::uuid, $${i * 3 + 2}::uuid, $${i * 3 + 3}::text)`).join(', ');
    const params = fileIds.flatMap((fileId, i) => {
      const company = COMPANIES[i % COMPANIES.length]!;
      return [fileId, company, storageKey(company)];
    });
    const load = loadavg()[0]!;
    const cpuBefore = cpuSeconds();
    await database.query(
      `with files(file_id, company_id, storage_key) as (values ${values}),
       t as (insert into transcription.transcripts (id, file_id, company_id, storage_key, filename, original_name, mime_type, size, uploaded_at)
             select gen_random_uuid(), file_id, company_id, storage_key, 'call.wav', 'call.wav', 'audio/wav', ${call.data.length}, now() from files)
       insert into transcription.jobs (file_id, company_id, status) select file_id, company_id, 'pending' from files`,
      params,
    );
    const queuedAt = performance.now();
    const holder = new Map<string, string>();
    await waitFor(
      `${BACKLOG} jobs to complete with ${workers} worker(s)`,
      async () => {
        const jobs = await database.query<{
          file_id: string;
          status: string;
          locked_by: string | null;
          reason: string | null;
        }>('select file_id, status, locked_by, reason from transcription.jobs where file_id = any($1)', [fileIds]);
        for (const j of jobs) if (j.status === 'processing' && j.locked_by) holder.set(j.file_id, j.locked_by);
        // A failed attempt (even one to be retried later) means the figures would time the back-off.
        const failed = jobs.find((j) => j.status !== 'completed' && j.reason);
        if (failed) throw new Error(`a job failed: ${failed.reason}`);
        return jobs.every((j) => j.status === 'completed');
      },
      3_600_000,
    );
    const seconds = (performance.now() - queuedAt) / 1000;
    const cpu = cpuSeconds() - cpuBefore;
    const perWorker = names.map(
      (name) => [...holder.values()].filter((id) => id.includes(`-${pids.get(name)}-`)).length,
    );
    rows.push(
      `| ${workers} | ${seconds.toFixed(1)} s | ${((BACKLOG / seconds) * 60).toFixed(1)} | ${perWorker.join(' / ')} | ${cpu.toFixed(0)} s | ${load.toFixed(1)} |`,
    );
    console.log(rows.at(-1));
    await processes.stopAll();
  }
  console.log(
    `\n| workers | drain time | jobs/min | completed per worker | machine CPU | load at start |\n|---|---|---|---|---|---|\n${rows.join('\n')}`,
  );
} finally {
  await processes.stopAll();
  await new Promise((resolve) => keys.server.close(resolve));
  await database.close();
  await admin(`drop database if exists ${databaseName} with (force)`);
  rmSync(dir, { recursive: true, force: true });
}
