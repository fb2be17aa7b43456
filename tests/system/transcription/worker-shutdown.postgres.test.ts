import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildServer, openDatabase, type Database, type ServiceContext } from '@earshot/kit';
import {
  createTestStack,
  serveUnmeteredCredits,
  TEST_JWT_SECRET,
  TEST_SECRETS_KEY,
  type TestStack,
} from '@earshot/kit/testing';
import { fileService } from '@earshot/file-service';
import { createWorker, transcriptionService, type TranscriptionConfig } from '@earshot/transcription-service';
import { ensureServersBuilt } from '../../../scripts/build.mjs';
import { freePorts, Processes, waitFor } from '../../../scripts/distributed/processes';
import type { FileConfig } from '../../../services/file/src/config';
import { asSuperuser, databaseUrl } from '../../../deploy/db-roles';
import { emitted, tmp, upload, waitForStatus } from './helpers';

// A stand-alone worker is a real process (compiled `dist/worker.js`, as k8s runs it) on the same PostgreSQL
// database and DATA_DIR as the test's stack, which runs no worker of its own. SIGTERM is what a
// KEDA scale-in sends: the worker must end its job exactly once, by finishing it within
// TRANSCRIPTION_DRAIN_MS or by handing it back for another worker.

const ACME = '11111111-1111-4111-8111-111111111111';
const INTERNAL_API_TOKEN = 'shutdown-test-internal-token-0123456789';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Speech long enough (about 27 s) that the worker is still decoding when the test signals it. */
function longSpeech(): Buffer {
  const path = join(tmp(), 'long.wav');
  const text = Array(8).fill('one two three four five six seven. good morning. thank you very much.').join(' ');
  execFileSync('espeak-ng', ['-v', 'en-us+m1', '-s', '150', '-w', path, text]);
  return readFileSync(path);
}

interface JobRow {
  status: string;
  attempts: number;
  locked_by: string | null;
  reason: string | null;
}

describe('a stand-alone worker stopped with SIGTERM', () => {
  const databaseName = `earshot_test_shutdown_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const serverUrl = process.env.DATABASE_URL!;
  const workersUrl = databaseUrl(serverUrl, databaseName);
  const logDir = tmp();
  const processes = new Processes(root, logDir);
  let database: Database;
  let stack: TestStack;
  let user: string;
  let ctx: ServiceContext<TranscriptionConfig>;
  let audio: Buffer;
  /** The file service's internal route (a company's audio key), as distributed mode serves it. */
  let keys: FastifyInstance;
  let keysUrl: string;

  const admin = (statement: string) => asSuperuser(serverUrl, 'postgres', (c) => c.query(statement));

  beforeAll(async () => {
    // The worker runs compiled, as in production: built here when missing or stale.
    expect(ensureServersBuilt()).toBe(0);
    await admin(`create database ${databaseName}`);
    database = await openDatabase({ url: workersUrl, poolSize: 5 });
    stack = await createTestStack(
      [fileService, transcriptionService],
      { TRANSCRIPTION_WORKER: 'false', TRANSCRIPTION_COMPANY_CONCURRENCY: '10', INTERNAL_API_TOKEN },
      { database },
    );
    serveUnmeteredCredits(stack.database);
    keys = buildServer({ logLevel: 'silent', name: 'file' });
    await fileService.internalRoutes!(keys, stack.running.contexts.get('file') as ServiceContext<FileConfig>);
    keysUrl = await keys.listen({ host: '127.0.0.1', port: 0 });
    user = await stack.tokenFor('USER', ACME);
    ctx = stack.running.contexts.get('transcription') as ServiceContext<TranscriptionConfig>;
    audio = longSpeech();
  }, 120_000);

  afterAll(async () => {
    await processes.stopAll();
    await keys?.close();
    await stack?.close();
    await admin(`drop database if exists ${databaseName} with (force)`);
  });

  /** Starts the worker process and waits for its /ready. */
  async function startWorker(name: string, drainMs: number): Promise<void> {
    const [port] = await freePorts(1);
    const unreachable = 'http://127.0.0.1:9';
    await processes.start(
      {
        name,
        cwd: 'services/transcription',
        entry: 'dist/worker.js',
        readyUrl: `http://127.0.0.1:${port}/ready`,
        env: {
          NODE_ENV: 'test',
          LOG_LEVEL: 'info',
          HOST: '127.0.0.1',
          PORT: String(port),
          DATABASE_URL: workersUrl,
          DATA_DIR: ctx.config.DATA_DIR,
          JWT_SECRET: TEST_JWT_SECRET,
          SECRETS_KEY: TEST_SECRETS_KEY,
          TRANSCRIPTION_CONCURRENCY: '1',
          TRANSCRIPTION_COMPANY_CONCURRENCY: '10',
          TRANSCRIPTION_POLL_MS: '100',
          TRANSCRIPTION_DRAIN_MS: String(drainMs),
          FILE_SERVICE_URL: keysUrl,
          INTERNAL_API_TOKEN,
          // Never called here (no AI model is configured): required by a stand-alone worker.
          PROMPT_SERVICE_URL: unreachable,
          AUTH_JWKS_URL: `${unreachable}/api/auth/jwks`,
          SPEECH_MODELS_URL: unreachable,
          SPEECH_DIARIZATION_URL: unreachable,
        },
      },
      180_000,
    );
  }

  const job = async (fileId: string) =>
    (
      await stack.database.query<JobRow>(
        'select status, attempts, locked_by, reason from transcription.jobs where file_id = $1',
        [fileId],
      )
    )[0]!;

  /** Waits until the worker process holds the job. */
  const claimedByWorker = (fileId: string) =>
    waitFor(
      'the worker process to claim the job',
      async () => {
        const row = await job(fileId);
        return row.status === 'processing' && row.locked_by !== null;
      },
      180_000,
    );

  const log = (name: string) => readFileSync(join(logDir, `${name}.log`), 'utf8');
  const statuses = async (fileId: string) =>
    (await emitted(stack, 'transcript.status_changed', fileId)).map((e) => e.data.status);

  /** An in-process worker takes the job up and completes it, once, in its first attempt. */
  async function completedByAnotherWorker(fileId: string): Promise<void> {
    const other = createWorker(ctx, { id: `worker-after-${fileId}`, pollMs: 100 });
    await other.start();
    try {
      expect(await waitForStatus(stack, user, fileId)).toMatchObject({ status: 'completed', attempts: 1 });
    } finally {
      await other.stop();
    }
    expect(await emitted(stack, 'transcript.completed', fileId)).toHaveLength(1);
  }

  test('within its drain bound: it claims nothing more, finishes its job once, and exits 0', async () => {
    await startWorker('drain', 600_000);
    const first = await upload(stack, user, audio, 'first.wav');
    const second = await upload(stack, user, audio, 'second.wav');
    // One job at a time: the worker runs one of them, the other waits. The signal follows the claim
    // at once, so the claimed job is still being decoded when it arrives.
    let running = '';
    await waitFor(
      'the worker process to claim a job',
      async () => {
        const [row] = await stack.database.query<{ file_id: string }>(
          `select file_id from transcription.jobs where status = 'processing' and file_id = any($1)`,
          [[first, second]],
        );
        running = row?.file_id ?? '';
        return running !== '';
      },
      180_000,
    );
    expect(await processes.terminate('drain', 600_000)).toBe(0);
    const waiting = running === first ? second : first;

    // It was still decoding when the signal came, and waited for that job only.
    const lines = log('drain')
      .split('\n')
      .filter((line) => line.includes('letting its running jobs finish'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ fileIds: [running], drainMs: 600_000 });
    expect(log('drain')).not.toContain('handing its running jobs back');

    expect(await job(running)).toMatchObject({ status: 'completed', attempts: 1, locked_by: null, reason: null });
    await stack.settle();
    expect(await emitted(stack, 'transcript.completed', running)).toHaveLength(1);
    expect(await statuses(running)).toEqual(['pending', 'processing', 'completed']);
    // Nothing more was claimed after SIGTERM.
    expect(await job(waiting)).toMatchObject({ status: 'pending', attempts: 0, locked_by: null });
    expect(await statuses(waiting)).toEqual(['pending']);

    // Another worker takes the waiting job up: nothing was lost.
    await completedByAnotherWorker(waiting);
  }, 900_000);

  test('past its drain bound: it hands the job back, another worker completes it exactly once', async () => {
    await startWorker('hand-back', 0);
    const fileId = await upload(stack, user, audio, 'handed-back.wav');
    await claimedByWorker(fileId);
    const holder = (await job(fileId)).locked_by;

    expect(await processes.terminate('hand-back', 120_000)).toBe(0);

    const lines = log('hand-back')
      .split('\n')
      .filter((line) => line.includes('handing its running jobs back'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ worker: holder, fileIds: [fileId] });
    // Back in the queue at once, the interrupted attempt not counted; no result written.
    expect(await job(fileId)).toMatchObject({ status: 'pending', attempts: 0, locked_by: null, reason: null });
    expect(await emitted(stack, 'transcript.completed', fileId)).toHaveLength(0);

    await completedByAnotherWorker(fileId);
    expect(await statuses(fileId)).toEqual(['pending', 'processing', 'pending', 'processing', 'completed']);
    const transcripts = await stack.database.query<{ n: number }>(
      'select count(*)::int as n from transcription.transcripts where file_id = $1 and completed_at is not null',
      [fileId],
    );
    expect(transcripts[0]!.n).toBe(1);
  }, 900_000);
});
