import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { Worker, type Transferable } from 'node:worker_threads';

/** What one run in a thread of its own may cost. */
export interface ThreadLimits {
  /** Wall-clock time from the thread's start to its answer. */
  timeoutMs: number;
  /** The thread's JavaScript heap; resident memory may grow twice this while it runs. */
  memoryMb: number;
}

/** Why a thread was ended before it answered. */
export type ThreadEnd = 'timeout' | 'memory' | 'crashed' | 'stopped';

/** Settles a run; the thread is ended first, so its memory is released before anything else starts. */
export interface ThreadFinish<T> {
  resolve(value: T): void;
  reject(error: Error): void;
}

export interface ThreadRun<M, T> {
  workerData: unknown;
  /** Moved to the thread, not copied (the buffers of workerData). */
  transferList?: readonly Transferable[];
  limits: ThreadLimits;
  /** The process is stopping: the thread is ended and the run rejects with failure('stopped'). */
  signal?: AbortSignal;
  /** Each message the thread posts, in order; `finish` ends the run. */
  onMessage(message: M, finish: ThreadFinish<T>): void;
  /** What the run rejects with when the thread is ended without an answer. */
  failure(end: ThreadEnd, cause?: Error): Error;
}

export interface RunningThread<T> {
  result: Promise<T>;
  /** Sends the thread a message (ignored once the run has ended). */
  post(message: unknown, transferList?: readonly Transferable[]): void;
}

const MB = 1024 * 1024;
/** How often resident memory is looked at while a thread runs. */
const MEMORY_CHECK_MS = 100;

/** A thread with a run's limits: its heap capped by V8, what it prints dropped. */
function startThread(entry: URL, memoryMb: number, workerData?: unknown, transferList?: readonly Transferable[]) {
  const thread = new Worker(entry, {
    workerData,
    transferList: transferList ? [...transferList] : undefined,
    // The thread loads its TypeScript itself: none of this process's loader flags are wanted there.
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: memoryMb, stackSizeMb: 4 },
    // What a library prints (pdf.js warns of every oddity of a file) is dropped, not logged.
    stdout: true,
    stderr: true,
  });
  thread.stdout.resume();
  thread.stderr.resume();
  return thread;
}

/**
 * Watches one run on `thread` until it is settled: past `timeoutMs`, or with resident memory grown
 * more than twice the heap limit (buffers outside the heap), or when the thread fails or exits, the
 * thread is ended and the run rejects with `run.failure`. A run settled by `onMessage` ends the
 * thread too, unless `keep` (a kept thread, ready for the next run). Settled once any ending thread
 * is gone, so its memory is released before the next run starts.
 */
function supervise<M, T>(
  thread: Worker,
  run: ThreadRun<M, T>,
  keep: boolean,
  ended: () => void,
): { result: Promise<T>; settled: () => boolean } {
  let settled = false;
  const result = new Promise<T>((resolve, reject) => {
    const baseline = process.memoryUsage.rss();
    const end = (settle: () => void, failed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(watch);
      run.signal?.removeEventListener('abort', stop);
      thread.off('message', onMessage).off('error', onError).off('exit', onExit);
      if (keep && !failed) return settle();
      ended();
      void thread.terminate().finally(settle);
    };
    const finish: ThreadFinish<T> = {
      resolve: (value) => end(() => resolve(value), false),
      reject: (error) => end(() => reject(error), false),
    };
    const fail = (kind: ThreadEnd, cause?: Error) => end(() => reject(run.failure(kind, cause)), true);
    const stop = () => fail('stopped');
    const onMessage = (message: M) => run.onMessage(message, finish);
    const onError = (error: Error & { code?: string }) =>
      fail(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'crashed', error);
    // Ended without an answer (process.exit in a library, a thread that could not start).
    const onExit = () => fail('crashed');
    const timer = setTimeout(() => fail('timeout'), run.limits.timeoutMs);
    const watch = setInterval(() => {
      if (process.memoryUsage.rss() - baseline > 2 * run.limits.memoryMb * MB) fail('memory');
    }, MEMORY_CHECK_MS);
    if (run.signal?.aborted) return stop();
    run.signal?.addEventListener('abort', stop, { once: true });
    thread.on('message', onMessage).on('error', onError).on('exit', onExit);
  });
  return { result, settled: () => settled };
}

const postUnlessSettled =
  (thread: Worker, settled: () => boolean): RunningThread<unknown>['post'] =>
  (message, transferList) => {
    if (!settled()) thread.postMessage(message, transferList ? [...transferList] : undefined);
  };

/**
 * Runs untrusted or unbounded work (parsing a user's file) in a thread of its own, so the event
 * loop that serves requests is never blocked by it. The thread's JavaScript heap is capped by V8
 * (`resourceLimits`); what lies outside that heap (the buffers a parser inflates into) is watched
 * here: resident memory growing more than twice the heap limit ends the thread as 'memory'. Past
 * `timeoutMs` it is ended as 'timeout'. `entry` is a `-thread.mjs` file beside the caller, named
 * by a URL relative to the caller's `import.meta.url` (the form `npm run build` finds and compiles:
 * see THREAD_ENTRY in scripts/build.mjs). Each
 * run gets a new thread, ended when it answers: nothing it held is kept.
 */
export function runInThread<M, T>(entry: URL, run: ThreadRun<M, T>): RunningThread<T> {
  if (run.signal?.aborted) return { result: Promise.reject(run.failure('stopped')), post: () => undefined };
  const thread = startThread(entry, run.limits.memoryMb, run.workerData, run.transferList);
  const { result, settled } = supervise(thread, run, false, () => undefined);
  return { result, post: postUnlessSettled(thread, settled) };
}

/**
 * A thread kept from run to run, for work whose thread costs more to start than the work itself
 * (an export of a short call): each run is held to its limits as runInThread's are, and its first
 * message is `workerData`. A run over a limit, or a thread that fails, ends the thread; the next
 * run starts a new one, so what a failed run held is never kept. A run the thread answers leaves it
 * running, idle, holding nothing the run gave it once it has answered. V8 fixes a thread's heap
 * limit when it starts, so a run with another `memoryMb` than the kept thread's first ends that
 * thread (and waits until it is gone, its memory released) and runs in a new one started with it.
 */
export class KeptThread {
  private kept: { thread: Worker; memoryMb: number } | null = null;

  constructor(private readonly entry: URL) {}

  async run<M, T>(run: ThreadRun<M, T>): Promise<RunningThread<T>> {
    if (run.signal?.aborted) return { result: Promise.reject(run.failure('stopped')), post: () => undefined };
    if (this.kept && this.kept.memoryMb !== run.limits.memoryMb) await this.close();
    const thread = (this.kept ??= this.start(run.limits.memoryMb)).thread;
    thread.postMessage(run.workerData, run.transferList ? [...run.transferList] : undefined);
    const { result, settled } = supervise(thread, run, true, () => this.forget(thread));
    return { result, post: postUnlessSettled(thread, settled) };
  }

  /** Ends the thread (the service is stopping); a run under way rejects as 'crashed'. */
  async close(): Promise<void> {
    const thread = this.kept?.thread;
    this.kept = null;
    await thread?.terminate();
  }

  private start(memoryMb: number): { thread: Worker; memoryMb: number } {
    const thread = startThread(this.entry, memoryMb);
    // An idle thread never keeps the process alive; one that ends between runs is replaced.
    thread.unref();
    thread.once('exit', () => this.forget(thread));
    return { thread, memoryMb };
  }

  private forget(thread: Worker): void {
    if (this.kept?.thread === thread) this.kept = null;
  }
}

/**
 * Called first in a thread runInThread or KeptThread started: when the cores are busy, the thread that serves
 * requests goes first. On Linux a thread has a nice value of its own (/proc/thread-self names its
 * id). 10, not the lowest: on a machine busy with other work the thread still gets its share
 * before its time limit.
 */
export function lowerThreadPriority(): void {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 10);
  } catch {
    // Elsewhere it keeps the process's priority.
  }
}
