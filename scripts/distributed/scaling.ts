import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { GatewayClient, Session } from './api';
import { stereoCall } from './audio';
import { freePorts, waitFor } from './processes';
import { SpeechServer } from './speech-server';
import type { Steps } from './steps';
import type { System } from './system';

/** Recordings queued at once, spread over the companies given. */
const BACKLOG = 18;
/** What each call to the speech server takes of its time (a remote GPU's answer, not the worker's CPU). */
const SPEECH_MS = 2000;
/** Jobs a phase of k workers completes, all k busy, before the next worker is added: 2k. */
const PHASE_JOBS = (workers: number) => 2 * workers;

/** Who held each job while it ran, read from the jobs table as the workers claim. */
class ClaimWatcher {
  /** Last worker id seen holding each job (the one whose lease-checked write completed it). */
  readonly holder = new Map<string, string>();
  /** Every distinct worker id seen on each job (more than one: the job changed hands). */
  readonly holders = new Map<string, Set<string>>();
  private stopped = false;
  private failure: unknown;
  private readonly loop: Promise<void>;

  constructor(
    private readonly system: System,
    private readonly fileIds: readonly string[],
  ) {
    // Kept until stop() reports it: a rejection nobody awaits yet would end the suite's process.
    this.loop = this.watch().catch((error: unknown) => {
      this.failure = error;
    });
  }

  /** One connection for the whole watch: a poll every 50 ms must not open a connection each time. */
  private async watch(): Promise<void> {
    await this.system.superuser(async (c) => {
      while (!this.stopped) {
        const { rows } = await c.query<{ file_id: string; locked_by: string }>(
          `select file_id, locked_by from transcription.jobs
           where file_id = any($1) and status = 'processing' and locked_by is not null`,
          [this.fileIds],
        );
        for (const { file_id, locked_by } of rows) {
          this.holder.set(file_id, locked_by);
          this.holders.set(file_id, (this.holders.get(file_id) ?? new Set()).add(locked_by));
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
    if (this.failure) throw new Error('watching the claims failed', { cause: this.failure });
  }
}

/** Worker processes' ids are `<host>-<pid>-<random>`: the process (by name) a worker id belongs to. */
function processOf(workerId: string, pids: Map<string, number>): string | undefined {
  for (const [name, pid] of pids) if (workerId.includes(`-${pid}-`)) return name;
  return undefined;
}

/**
 * A backlog drained by more and more workers, as KEDA adds them on the lag. The workers call a
 * speech-to-text server (AI Configuration's default model) that takes SPEECH_MS per call of its
 * own time, as a remote GPU server would: on this 2-core machine a local decoder per worker would
 * only share the same two cores, so what a worker adds would not show. The compose-like worker is
 * scaled in (SIGTERM, it had nothing running), one worker starts, BACKLOG recordings are queued
 * across the companies; then, for each added worker, the speech server holds its answers while
 * the worker starts, and the phase of k workers is timed from the moment all k are busy until it
 * has completed 2k jobs; the rest then drains. Checked: in each phase as
 * many calls ran at once as there were workers, and never more; every job completed once (one
 * transcript.completed each in the audit log, one attempt, one holder); every worker completed at
 * least one. The time and rate of each phase are printed (not asserted: this machine's speed is
 * not the product's).
 */
export async function scalingScenario(
  system: System,
  steps: Steps,
  api: GatewayClient,
  host: Session,
  companies: readonly { id: string; admin: Session }[],
): Promise<void> {
  const names = ['scaling-worker-1', 'scaling-worker-2', 'scaling-worker-3'];
  const ports = await freePorts(names.length);
  const spec = (i: number) => {
    const base = system.spec('transcription-worker');
    const port = String(ports[i]);
    return {
      ...base,
      name: names[i]!,
      readyUrl: `http://127.0.0.1:${port}/ready`,
      // One job at a time each, so that each added worker is one more call in flight.
      env: {
        ...base.env,
        PORT: port,
        DATA_DIR: join(system.dir, names[i]!),
        TRANSCRIPTION_CONCURRENCY: '1',
        // Three calls at once whichever company's recordings are left (two each by default).
        TRANSCRIPTION_COMPANY_CONCURRENCY: '3',
        // Compose's lease, not the suite's short one for kill -9: no worker dies here, and on a busy
        // machine a late heartbeat must not hand a job to another worker mid-way.
        TRANSCRIPTION_LEASE_MS: '60000',
        // A call held while the next worker starts (minutes on a loaded machine) is not a hung one.
        AI_TIMEOUT_MS: '900000',
      },
    };
  };
  const pids = new Map<string, number>();
  const start = async (i: number) => {
    await system.processes.start(spec(i), 300_000);
    pids.set(names[i]!, system.processes.pid(names[i]!));
  };

  await steps.run('scale in the compose worker (SIGTERM, nothing running), start one worker', async () => {
    assert.equal(await system.processes.terminate('transcription-worker', 120_000), 0, 'the worker exits 0 on SIGTERM');
    await start(0);
  });

  const speech = await SpeechServer.start(SPEECH_MS);
  try {
    await steps.run(
      `speech-to-text by a remote server (${SPEECH_MS} ms a call): its model the default in AI Configuration, priced`,
      async () => {
        const modelId = await api.defaultModel(
          host,
          { name: 'Speech server', baseUrl: speech.url, apiKey: 'sk-distributed-speech' },
          { name: 'remote-whisper', purpose: 'speech-to-text' },
        );
        // Billing prices only a model it has heard of; the transcription service queues with it once it has.
        await waitFor('billing to price the speech model', async () => {
          const answer = await api.call(host, 'POST', '/pricing', {
            modelId,
            unit: 'audio_minute',
            credits: 1,
          });
          return answer.status === 201;
        });
        await waitFor('the transcription service to know the speech model', () =>
          system.superuser(
            async (c) =>
              (await c.query(`select 1 from transcription.ai_models where id = $1 and enabled`, [modelId])).rowCount ===
              1,
          ),
        );
      },
    );
    await drain(system, steps, api, companies, speech, { names, pids, start });
  } finally {
    await speech.close();
  }
}

/** The backlog queued, then drained by one, two and three workers; checks and prints what each did. */
async function drain(
  system: System,
  steps: Steps,
  api: GatewayClient,
  companies: readonly { id: string; admin: Session }[],
  speech: SpeechServer,
  workers: { names: string[]; pids: Map<string, number>; start: (i: number) => Promise<void> },
): Promise<void> {
  const { names, pids, start } = workers;
  const call = stereoCall();
  const fileIds = await steps.run(
    `queue a backlog of ${BACKLOG} calls (${call.duration.toFixed(1)} s each) across ${companies.length} companies`,
    async () => {
      const ids: string[] = [];
      // Four uploads at a time: one by one, queueing alone took 20 s on the loaded 2-core machine.
      await Promise.all(
        Array.from({ length: 4 }, async (_, lane) => {
          for (let i = lane; i < BACKLOG; i += 4) {
            const company = companies[i % companies.length]!;
            const answer = await api.upload<{ _id: string }>(company.admin, '/files/upload', {
              name: `backlog-${i}.wav`,
              type: 'audio/wav',
              data: call.data,
            });
            assert.equal(answer.status, 201, `upload ${i} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
            ids[i] = answer.body._id;
          }
        }),
      );
      return ids;
    },
  );
  const queuedAt = Date.now();
  const watcher = new ClaimWatcher(system, fileIds);
  const count = async (status: string) =>
    system.superuser(async (c) =>
      Number(
        (
          await c.query(`select count(*) as n from transcription.jobs where file_id = any($1) and status = $2`, [
            fileIds,
            status,
          ])
        ).rows[0].n,
      ),
    );
  // A failed job ends a wait at once (waitFor's failure check), not at its safety limit: a probe's
  // own throw would only count as "not yet".
  let failed = 0;
  const failure = () => (failed > 0 ? `${failed} job(s) of the backlog failed` : null);
  const completed = async () => {
    failed = await count('failed');
    return count('completed');
  };
  const phases: { workers: number; seconds: number; jobs: number; peak: number }[] = [];
  /** All `workers` busy (held calls included), the gate open: timed until `jobs` more completed. */
  const phase = async (workers: number, jobs: number) => {
    await waitFor(
      `${workers} calls in flight at the speech server`,
      async () => {
        await completed(); // for its failed count
        return speech.inFlight === workers;
      },
      300_000,
      failure,
    );
    speech.resetPeak();
    const before = await completed();
    const target = Math.min(BACKLOG, before + jobs);
    const from = Date.now();
    speech.release();
    let done = before;
    await waitFor(
      `${target} of ${BACKLOG} jobs completed with ${workers} worker(s)`,
      async () => {
        done = await completed();
        return done >= target;
      },
      900_000,
      failure,
    );
    phases.push({ workers, seconds: (Date.now() - from) / 1000, jobs: done - before, peak: speech.peak });
  };

  try {
    await steps.run('add a second and a third worker while the backlog drains; every job completes', async () => {
      // Held from the start: phase one starts once the first worker has its first call under way.
      speech.hold();
      await phase(1, PHASE_JOBS(1));
      for (const i of [1, 2]) {
        speech.hold();
        await start(i);
        await phase(i + 1, PHASE_JOBS(i + 1));
      }
      // The tail, fewer jobs left than workers, is not a phase: what is left drains as it may.
      await waitFor(`all ${BACKLOG} jobs to complete`, async () => (await completed()) === BACKLOG, 900_000, failure);
    });
  } finally {
    speech.release();
    await watcher.stop();
  }

  await steps.run('…each job once, each worker at least one, as many calls at once as workers', async () => {
    for (const p of phases)
      assert.equal(p.peak, p.workers, `with ${p.workers} worker(s), ${p.peak} calls ran at once at the speech server`);
    const attempts = await system.superuser(
      async (c) =>
        (
          await c.query<{ file_id: string; attempts: number; engine: string | null }>(
            `select j.file_id, j.attempts, t.engine from transcription.jobs j
             join transcription.transcripts t on t.file_id = j.file_id where j.file_id = any($1)`,
            [fileIds],
          )
        ).rows,
    );
    assert.deepEqual(
      attempts.filter((a) => a.attempts !== 1),
      [],
      'every job ran once: one attempt each',
    );
    assert.deepEqual(
      attempts.filter((a) => a.engine !== 'openai'),
      [],
      'every job was transcribed by the speech server',
    );
    // A stereo call is transcribed channel by channel (one decoder per worker: one after the other).
    assert.equal(speech.answered, 2 * BACKLOG, 'two calls to the speech server per job, one per channel');
    for (const [fileId, seen] of watcher.holders)
      assert.equal(seen.size, 1, `job ${fileId} changed hands: ${[...seen].join(', ')}`);
    // One transcript.completed per recording reached the audit log through Kafka.
    await waitFor('every transcript.completed in the audit log', async () => {
      const rows = await system.superuser(
        async (c) =>
          (
            await c.query<{ file_id: string; n: string }>(
              `select data->>'fileId' as file_id, count(*) as n from audit.entries
               where type = 'transcript.completed' and data->>'fileId' = any($1) group by 1`,
              [fileIds],
            )
          ).rows,
      );
      assert.deepEqual(
        rows.filter((r) => Number(r.n) !== 1),
        [],
        'a recording was completed twice',
      );
      return rows.length === BACKLOG;
    });

    const perWorker = new Map(names.map((name) => [name, 0]));
    for (const fileId of fileIds) {
      const holder = watcher.holder.get(fileId);
      assert.ok(holder, `no worker was seen holding job ${fileId}`);
      const name = processOf(holder, pids);
      assert.ok(name, `job ${fileId} was held by ${holder}, not one of the scaling workers`);
      perWorker.set(name, perWorker.get(name)! + 1);
    }
    steps.note(
      `backlog of ${BACKLOG} drained in ${((Date.now() - queuedAt) / 1000).toFixed(1)} s (worker starts included)`,
    );
    steps.note(`completed per worker: ${JSON.stringify(Object.fromEntries(perWorker))}`);
    for (const p of phases)
      steps.note(
        `${p.workers} worker(s), all busy: ${p.jobs} jobs in ${p.seconds.toFixed(1)} s (${((p.jobs / p.seconds) * 60).toFixed(1)} jobs/min), ${p.peak} calls at once`,
      );
    for (const [name, n] of perWorker) assert.ok(n >= 1, `${name} completed no job: ${JSON.stringify([...perWorker])}`);
  });
}
