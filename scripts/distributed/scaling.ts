import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { GatewayClient, Session } from './api';
import { stereoCall } from './audio';
import { freePorts, waitFor } from './processes';
import type { Steps } from './steps';
import type { System } from './system';

/** Recordings queued at once, spread over the companies given. */
const BACKLOG = 12;

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
 * A backlog drained by more and more workers, as KEDA adds them on the lag: the compose-like
 * worker is scaled in (SIGTERM, it had nothing running), one worker starts, BACKLOG recordings are
 * queued across the companies, then a second and a third worker join while the queue is still
 * long. Every job completes once (one transcript.completed each in the audit log, one attempt),
 * every worker completes at least one, and the completions per worker and the time each phase
 * took are printed (not asserted: this machine's speed is not the product's).
 */
export async function scalingScenario(
  system: System,
  steps: Steps,
  api: GatewayClient,
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
      // One job at a time each, so that each added worker is one more decoder.
      env: {
        ...base.env,
        PORT: port,
        DATA_DIR: join(system.dir, names[i]!),
        TRANSCRIPTION_CONCURRENCY: '1',
        // Compose's lease, not the suite's short one for kill -9: no worker dies here, and on a busy
        // machine a late heartbeat must not hand a job to another worker mid-way.
        TRANSCRIPTION_LEASE_MS: '60000',
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
  const completed = async () =>
    system.superuser(async (c) =>
      Number(
        (
          await c.query(
            `select count(*) as n from transcription.jobs where file_id = any($1) and status = 'completed'`,
            [fileIds],
          )
        ).rows[0].n,
      ),
    );
  const phases: { workers: number; from: number; to: number; doneBefore: number; doneAfter: number }[] = [];
  const phase = async (workers: number, from: number, work: () => Promise<void>) => {
    const doneBefore = await completed();
    await work();
    phases.push({ workers, from, to: Date.now(), doneBefore, doneAfter: await completed() });
  };

  try {
    await steps.run('add a second and a third worker while the backlog drains; every job completes', async () => {
      await phase(1, queuedAt, () => start(1));
      await phase(2, Date.now(), () => start(2));
      await phase(3, Date.now(), () =>
        waitFor(
          `all ${BACKLOG} jobs to complete`,
          async () => {
            const failed = await system.superuser(
              async (c) =>
                (
                  await c.query(
                    `select file_id, reason from transcription.jobs where file_id = any($1) and status = 'failed'`,
                    [fileIds],
                  )
                ).rows,
            );
            assert.deepEqual(failed, [], 'no job of the backlog failed');
            return (await completed()) === BACKLOG;
          },
          // A safety net: at a load of 25–35 on two cores a 9.6 s call took a worker about a minute.
          900_000,
        ),
      );
    });
  } finally {
    await watcher.stop();
  }

  await steps.run('…each job once, each worker at least one: the completions per worker', async () => {
    const attempts = await system.superuser(
      async (c) =>
        (
          await c.query<{ file_id: string; attempts: number }>(
            `select file_id, attempts from transcription.jobs where file_id = any($1)`,
            [fileIds],
          )
        ).rows,
    );
    assert.deepEqual(
      attempts.filter((a) => a.attempts !== 1),
      [],
      'every job ran once: one attempt each',
    );
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
    steps.note(`backlog of ${BACKLOG} drained in ${((Date.now() - queuedAt) / 1000).toFixed(1)} s`);
    steps.note(`completed per worker: ${JSON.stringify(Object.fromEntries(perWorker))}`);
    for (const p of phases) {
      const seconds = (p.to - p.from) / 1000;
      steps.note(
        `${p.workers} worker(s): ${p.doneAfter - p.doneBefore} jobs completed in ${seconds.toFixed(1)} s (${(((p.doneAfter - p.doneBefore) / seconds) * 60).toFixed(1)} jobs/min)`,
      );
    }
    for (const [name, n] of perWorker) assert.ok(n >= 1, `${name} completed no job: ${JSON.stringify([...perWorker])}`);
  });
}
