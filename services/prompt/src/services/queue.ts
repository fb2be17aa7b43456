import { ANALYSIS_MESSAGES } from '@earshot/contracts';
import { unrefInterval, type Database, type ServiceContext } from '@earshot/kit';
import type { PromptConfig } from '../config';
import type { RunRow } from '../db/schema';
import * as runsRepo from '../repositories/runs';
import { outcomeEvent } from './runner';

/**
 * The analysis runs of this process: up to ANALYSIS_CONCURRENCY at once, taken from the runs table
 * (whose text is whole) fairly between companies, at most ANALYSIS_COMPANY_CONCURRENCY of one
 * company's at once (see runsRepo.claimNext). New runs wake it at once; a timer looks now and then for
 * runs made elsewhere. Nothing survives a restart: runs left running are failed at start.
 */
export class AnalysisQueue {
  private readonly loops = new Set<Promise<void>>();
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly ctx: ServiceContext<PromptConfig>,
    private readonly work: (run: RunRow) => Promise<void>,
  ) {}

  /** Fails what a stopped process left running (with its event), then starts taking runs. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.ctx.transact(async (tx, emit) => {
      for (const run of await runsRepo.failInterrupted(tx, ANALYSIS_MESSAGES.interrupted)) emit(outcomeEvent(run));
    });
    this.timer = unrefInterval(() => this.nudge(), this.ctx.config.ANALYSIS_POLL_MS);
    this.nudge();
  }

  /** Starts taking runs, up to the concurrency (a loop ends when nothing is left to take). */
  nudge(): void {
    while (!this.stopped && this.loops.size < this.ctx.config.ANALYSIS_CONCURRENCY) {
      const loop: Promise<void> = this.drain()
        .catch((error: unknown) => {
          this.ctx.logger.error({ err: error }, 'analysis queue failed to take a run');
        })
        .finally(() => this.loops.delete(loop));
      this.loops.add(loop);
    }
  }

  private async drain(): Promise<void> {
    while (!this.stopped) {
      const run = await this.ctx.transact((tx) => runsRepo.claimNext(tx, this.ctx.config.ANALYSIS_COMPANY_CONCURRENCY));
      if (!run) return;
      await this.work(run);
    }
  }

  /** Resolves when no run is being worked on and none that could be taken is left. */
  async idle(): Promise<void> {
    while (this.loops.size > 0) await Promise.all([...this.loops]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.idle();
  }
}

// The queue of each process's database handle, for the handlers that make runs and for tests
// that wait for runs to end.
const queues = new WeakMap<Database, AnalysisQueue>();

export function registerQueue(database: Database, queue: AnalysisQueue): void {
  queues.set(database, queue);
}

export function analysisQueue(database: Database): AnalysisQueue | undefined {
  return queues.get(database);
}
