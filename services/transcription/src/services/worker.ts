import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { contextFrom, SpanKind, withSpan, type ServiceContext } from '@earshot/kit';
import { findSource } from '../repositories/transcripts';
import { heartbeat } from '../repositories/jobs';
import { JobError, reasonOf } from './job-error';
import type { SpeechEngine } from '../engines';
import { transcribeStoredAudio, type PipelineDeps } from './pipeline';
import { redactAudioForCompany } from '../redaction/policy';
import { jobDir, removeStaleJobDirs } from './work-dirs';
import { claimNext, completeJob, failJob, releaseJob, type ClaimedJob, type QueueSettings } from './queue';

export interface WorkerOptions extends QueueSettings {
  id?: string;
  concurrency: number;
  pollMs: number;
  /** How long stop() lets running jobs finish before handing them back (0: at once). */
  drainMs?: number;
}

export type JobOutcome = 'completed' | 'retry' | 'failed' | 'lost' | 'released';

export interface JobDeps extends PipelineDeps {
  /** Parent of the jobs' temporary directories (DATA_DIR/tmp/transcription). */
  workRoot: string;
  /**
   * The engine chosen for this job, asked per job: a downloaded Whisper model's (its name as
   * `model`) or AI Configuration's speech-to-text model's (its id, for its price, and name); null: `engine`.
   */
  chosenEngine?: () => Promise<{ engine: SpeechEngine; modelId: string | null; model: string | null } | null>;
  /** Frees what the engines hold (the whisper thread) when the worker stops. */
  close?: () => Promise<void>;
}

/** Waits until every promise has settled or `ms` has passed, whichever is first. */
async function settledWithin(work: Promise<unknown>[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled(work),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}

export const newWorkerId = () => `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;

/**
 * Runs one claimed job to its end: the pipeline, then the result or the failure written under
 * the lease check. `signal` aborts the work (lease lost or worker stopping).
 */
export async function processJob(
  ctx: ServiceContext,
  deps: JobDeps,
  job: ClaimedJob,
  settings: QueueSettings,
  signal: AbortSignal,
): Promise<JobOutcome> {
  try {
    const source = await findSource(ctx.db, job.fileId);
    if (!source) return 'lost';
    const chosen = await deps.chosenEngine?.();
    // The upload's language ('auto': detect it), else the company's, else detect.
    const language = source.language ?? source.companyLanguage ?? 'auto';
    const speakers = {
      expected: source.expectedSpeakers,
      warn: (message: string) => ctx.logger.warn({ fileId: job.fileId }, message),
    };
    const recognised = {
      ...(await transcribeStoredAudio(
        { ...deps, engine: chosen?.engine ?? deps.engine },
        source.storageKey,
        signal,
        jobDir(deps.workRoot, job),
        language,
        speakers,
      )),
      model: chosen?.model ?? null,
    };
    const { result, audio } = await redactAudioForCompany(
      ctx.db,
      deps,
      { ...source, companyId: job.companyId, fileId: job.fileId },
      recognised,
      `${jobDir(deps.workRoot, job)}-redaction`,
      signal,
    );
    return (await completeJob(ctx, job, result, chosen?.modelId ?? null, audio)) ? 'completed' : 'lost';
  } catch (error) {
    if (signal.aborted) throw error;
    if (!(error instanceof JobError))
      ctx.logger.error({ err: error, fileId: job.fileId }, 'transcription job failed unexpectedly');
    const { reason, retryable } = reasonOf(error);
    return failJob(ctx, job, new JobError(reason, retryable), settings);
  }
}

/**
 * A transcription worker: claims up to `concurrency` jobs from the shared jobs table, keeps each
 * lease alive with heartbeats, and runs the pipeline. Many workers (processes) can share one
 * table: claims use SKIP LOCKED and every final write checks the lease.
 */
export class TranscriptionWorker {
  readonly id: string;
  private running = false;
  private readonly active = new Map<string, { controller: AbortController; done: Promise<JobOutcome | undefined> }>();
  private wake?: () => void;
  private loop?: Promise<void>;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly deps: JobDeps,
    private readonly options: WorkerOptions,
  ) {
    this.id = options.id ?? newWorkerId();
  }

  /** Clears what crashed jobs left in the work directory, then starts claiming. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const removed = await removeStaleJobDirs(this.ctx.db, this.deps.workRoot);
      if (removed.length)
        this.ctx.logger.info({ worker: this.id, removed }, 'removed temporary files of interrupted transcription jobs');
    } catch (error) {
      this.ctx.logger.warn({ err: error, worker: this.id }, 'could not clear temporary files of interrupted jobs');
    }
    if (this.running) this.loop = this.run();
  }

  /** Looks for work now (a job was just queued in this process). */
  nudge(): void {
    this.wake?.();
  }

  get busy(): number {
    return this.active.size;
  }

  /**
   * Stops claiming, lets running jobs finish for up to `drainMs` (their leases still beat), then
   * aborts what is left and hands it back to the queue for another worker. A job ends exactly one
   * way: completed (or failed) by this worker under its lease, or released, never both.
   */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    // A claim under way when stop() was called ends in `active` before the loop returns.
    await this.loop;
    const drainMs = this.options.drainMs ?? 0;
    if (this.active.size > 0 && drainMs > 0) {
      this.ctx.logger.info(
        { worker: this.id, fileIds: [...this.active.keys()], drainMs },
        'transcription worker stopping: letting its running jobs finish',
      );
      await settledWithin(
        [...this.active.values()].map((j) => j.done),
        drainMs,
      );
    }
    if (this.active.size > 0)
      this.ctx.logger.info(
        { worker: this.id, fileIds: [...this.active.keys()] },
        'transcription worker stopping: handing its running jobs back to the queue',
      );
    for (const job of this.active.values()) job.controller.abort(new Error('worker stopping'));
    await Promise.allSettled([...this.active.values()].map((j) => j.done));
    await this.deps.close?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      let claimed = false;
      try {
        while (this.running && this.active.size < this.options.concurrency) {
          const job = await claimNext(this.ctx, this.id, this.options);
          if (!job) break;
          claimed = true;
          this.launch(job);
        }
      } catch (error) {
        this.ctx.logger.error({ err: error, worker: this.id }, 'claiming transcription jobs failed; will try again');
      }
      if (!this.running) break;
      // Full, or nothing due: wait for a finished job, a nudge or the next poll.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(
          resolve,
          claimed && this.active.size < this.options.concurrency ? 0 : this.options.pollMs,
        );
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  private launch(job: ClaimedJob): void {
    const controller = new AbortController();
    const beat = setInterval(
      () => {
        heartbeat(this.ctx.db, job.fileId, this.id, this.options.leaseMs)
          .then((held) => {
            if (!held) controller.abort(new Error('lease lost'));
          })
          .catch((error: unknown) => this.ctx.logger.warn({ err: error, fileId: job.fileId }, 'heartbeat failed'));
      },
      Math.max(100, Math.floor(this.options.leaseMs / 3)),
    );
    // The job's span continues the trace that queued it: one upload is one trace to the finished transcript.
    const done = withSpan(
      'transcription job',
      {
        kind: SpanKind.CONSUMER,
        parent: contextFrom(job.traceparent ? { traceparent: job.traceparent } : undefined),
        attributes: { 'earshot.file.id': job.fileId, 'earshot.job.attempt': job.attempts },
      },
      async (span) => {
        const outcome = await processJob(this.ctx, this.deps, job, this.options, controller.signal);
        span.setAttribute('earshot.job.outcome', outcome);
        return outcome;
      },
    )
      .catch(async (error: unknown): Promise<JobOutcome | undefined> => {
        if (!controller.signal.aborted) {
          this.ctx.logger.error({ err: error, fileId: job.fileId }, 'transcription job crashed');
          return undefined;
        }
        if (this.running) return 'lost';
        await releaseJob(this.ctx, job).catch((e: unknown) =>
          this.ctx.logger.warn({ err: e, fileId: job.fileId }, 'could not release job'),
        );
        return 'released';
      })
      .finally(() => {
        clearInterval(beat);
        this.active.delete(job.fileId);
        this.wake?.();
      });
    this.active.set(job.fileId, { controller, done });
  }
}
