import type { Logger } from 'pino';
import { SYSTEM_ACTOR } from '@earshot/contracts';
import type { Db } from '../db/database';
import type { NewEvent } from '../outbox';
import { unrefInterval } from '../timers';
import type { CompanyKeyRing, EncryptionProgress } from './key-ring';

/** How often a background encryption pass looks for companies that turned encryption on. */
export const ENCRYPTION_PASS_POLL_MS = 15_000;

/**
 * Runs a service's background encryption pass (what a company stored before it turned encryption
 * on) at start and on a timer, one run at a time in this process; a failure is logged and the
 * next tick tries again. The pass itself must be idempotent: replicas run it side by side.
 * Returns the timer, for stop().
 */
export function startEncryptionPass(logger: Logger, service: string, pass: () => Promise<void>): NodeJS.Timeout {
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    pass()
      .catch((error: unknown) => logger.error({ err: error, service }, 'encrypting existing data failed'))
      .finally(() => {
        running = false;
      });
  };
  tick();
  return unrefInterval(tick, ENCRYPTION_PASS_POLL_MS);
}

/** A pass tells how far it got at most this often per company, so a long one does not flood the bus. */
export const ENCRYPTION_PROGRESS_EVENT_MS = 5_000;

/**
 * When a pass over one company's objects should tell its progress (company.encryption_progressed,
 * state `running`): the first ask says yes, later ones only once `everyMs` has passed since the
 * last yes. The end (`done`) is told regardless.
 */
export function progressClock(everyMs = ENCRYPTION_PROGRESS_EVENT_MS, now: () => number = Date.now): () => boolean {
  let last = Number.NEGATIVE_INFINITY;
  return () => {
    const at = now();
    if (at - last < everyMs) return false;
    last = at;
    return true;
  };
}

/** How many items a pass does between two saves of its progress (a restart starts over anyway). */
const SAVE_EVERY = 20;

/** What a pass needs of its service: one transaction with the outbox (a ServiceContext). */
interface Transactor {
  transact<T>(fn: (tx: Db, emit: (event: NewEvent) => void) => Promise<T>): Promise<T>;
}

/** What a pass needs of its service's context: its database, logger and transactions. */
export interface PassContext extends Transactor {
  readonly db: Db;
  readonly logger: Logger;
}

/** What a pass needs of a key ring: the companies left to do, and somewhere to save how far it got. */
export type PassKeyRing = Pick<CompanyKeyRing, 'pending' | 'saveProgress'>;

/**
 * One company's progress in a service's background encryption pass: saved in the key ring as it
 * goes and told as company.encryption_progressed (`running` at the start and then at most every
 * ENCRYPTION_PROGRESS_EVENT_MS, `done` at the end), the save and its event in one transaction, so
 * the console's bars (the tenant's projection) follow every service's pass.
 */
export class PassProgress {
  private readonly tell = progressClock();
  private readonly progress: EncryptionProgress;

  constructor(
    private readonly ctx: Transactor,
    private readonly ring: PassKeyRing,
    private readonly service: string,
    private readonly companyId: string,
    total: number,
  ) {
    this.progress = { state: 'running', done: 0, total };
  }

  get done(): number {
    return this.progress.done;
  }

  /** Announces the start (when there is anything to do). */
  async start(): Promise<void> {
    if (this.progress.total > 0) await this.save(this.tell());
  }

  /** `n` more items done: saved every SAVE_EVERY items, and whenever it is told. */
  async advance(n = 1): Promise<void> {
    const before = Math.floor(this.progress.done / SAVE_EVERY);
    this.progress.done += n;
    const announce = this.tell();
    if (announce || Math.floor(this.progress.done / SAVE_EVERY) > before) await this.save(announce);
  }

  async finish(): Promise<void> {
    this.progress.state = 'done';
    await this.save(true);
  }

  private async save(announce: boolean): Promise<void> {
    const { companyId, service, progress } = this;
    await this.ctx.transact(async (tx, emit) => {
      await this.ring.saveProgress(tx, companyId, progress);
      if (announce)
        emit({
          type: 'company.encryption_progressed',
          companyId,
          actor: SYSTEM_ACTOR,
          data: { companyId, service, done: progress.done, total: progress.total, state: progress.state },
        });
    });
  }
}

/**
 * One company's share of a background encryption pass, as its service plans it: how many items
 * it counts (the console bar's total), and the work, which calls `advance(n)` as n more are done.
 * The work answers false when it left something for the next pass: the company stays `running`.
 */
export interface CompanyEncryptionWork {
  total: number;
  run(advance: (n?: number) => Promise<void>): Promise<boolean | void>;
}

/**
 * A turn handed over in the order it was asked for: a company's work that gives its turn back
 * after each step goes behind every company already waiting, so the companies take turns.
 */
class Turns {
  private tail: Promise<void> = Promise.resolve();

  /** Waits for a turn; resolves with the function that ends it (calling it again does nothing). */
  take(): Promise<() => void> {
    let end!: () => void;
    const mine = new Promise<void>((resolve) => (end = resolve));
    const before = this.tail;
    this.tail = before.then(() => mine);
    return before.then(() => end);
  }
}

/**
 * A service's background encryption pass, the same in every service that keeps a key ring: for
 * each company whose encryption is pending, the service plans its work (null: nothing can be done
 * yet, the company is left for the next pass), progress is told at the start, as the work goes and
 * at the end (PassProgress), and the end is logged with `doneMessage`. Companies take turns, one
 * step (one `advance`) each, so a company with a million objects to seal does not hold back one
 * with ten; still one step at a time in the process, as before. A company whose work fails leaves
 * the others to finish; the first failure is thrown at the end (and the pass runs again later).
 */
export async function encryptPendingCompanies(
  ctx: PassContext,
  ring: PassKeyRing,
  service: string,
  doneMessage: string,
  workOf: (companyId: string) => Promise<CompanyEncryptionWork | null>,
): Promise<void> {
  const turns = new Turns();
  const outcomes = await Promise.allSettled(
    (await ring.pending(ctx.db)).map(async (companyId) => {
      let end = await turns.take();
      try {
        const work = await workOf(companyId);
        if (!work) return;
        const progress = new PassProgress(ctx, ring, service, companyId, work.total);
        await progress.start();
        const finished = await work.run(async (n) => {
          await progress.advance(n);
          end();
          end = await turns.take();
        });
        if (finished === false) return;
        await progress.finish();
        ctx.logger.info({ companyId, total: progress.done }, doneMessage);
      } finally {
        end();
      }
    }),
  );
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * Encrypts rows in batches: `next` gives the next batch of rows still plain (empty when none is
 * left), `seal` stores them sealed (so `next` no longer finds them), and each batch is counted.
 */
export async function sealInBatches<T>(
  next: () => Promise<readonly T[]>,
  seal: (batch: readonly T[]) => Promise<void>,
  advance: (n: number) => Promise<void>,
): Promise<void> {
  for (;;) {
    const batch = await next();
    if (batch.length === 0) return;
    await seal(batch);
    await advance(batch.length);
  }
}
