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

/**
 * Runs untrusted or unbounded work (parsing a user's file, rendering a huge export) in a thread of
 * its own, so the event loop that serves requests is never blocked by it. The thread's JavaScript
 * heap is capped by V8 (`resourceLimits`); what lies outside that heap (the buffers a parser
 * inflates into) is watched here: resident memory growing more than twice the heap limit ends the
 * thread as 'memory'. Past `timeoutMs` it is ended as 'timeout'. `entry` is a `-thread.mjs` file
 * beside the caller (`new URL('./x-thread.mjs', import.meta.url)`, which `npm run build` finds and
 * compiles). Each run gets a new thread, ended when it answers: nothing it held is kept.
 */
export function runInThread<M, T>(entry: URL, run: ThreadRun<M, T>): RunningThread<T> {
  let worker: Worker | null = null;
  const result = new Promise<T>((resolve, reject) => {
    if (run.signal?.aborted) return reject(run.failure('stopped'));
    const baseline = process.memoryUsage.rss();
    const thread = new Worker(entry, {
      workerData: run.workerData,
      transferList: run.transferList ? [...run.transferList] : undefined,
      // The thread loads its TypeScript itself: none of this process's loader flags are wanted there.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: run.limits.memoryMb, stackSizeMb: 4 },
      // What a library prints (pdf.js warns of every oddity of a file) is dropped, not logged.
      stdout: true,
      stderr: true,
    });
    worker = thread;
    thread.stdout.resume();
    thread.stderr.resume();
    let settled = false;
    const end = (settle: () => void) => {
      if (settled) return;
      settled = true;
      worker = null;
      clearTimeout(timer);
      clearInterval(watch);
      run.signal?.removeEventListener('abort', stop);
      // Settled once the thread is gone, so its memory is released before the next run starts.
      void thread.terminate().finally(settle);
    };
    const finish: ThreadFinish<T> = {
      resolve: (value) => end(() => resolve(value)),
      reject: (error) => end(() => reject(error)),
    };
    const fail = (kind: ThreadEnd, cause?: Error) => finish.reject(run.failure(kind, cause));
    const stop = () => fail('stopped');
    const timer = setTimeout(() => fail('timeout'), run.limits.timeoutMs);
    const watch = setInterval(() => {
      if (process.memoryUsage.rss() - baseline > 2 * run.limits.memoryMb * MB) fail('memory');
    }, MEMORY_CHECK_MS);
    run.signal?.addEventListener('abort', stop, { once: true });
    thread.on('message', (message: M) => {
      if (!settled) run.onMessage(message, finish);
    });
    thread.on('error', (error: Error & { code?: string }) =>
      fail(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'crashed', error),
    );
    // Ended without an answer (process.exit in a library, a thread that could not start).
    thread.on('exit', () => fail('crashed'));
  });
  return {
    result,
    post: (message, transferList) => worker?.postMessage(message, transferList ? [...transferList] : undefined),
  };
}

/**
 * Called first in a thread runInThread started: when the cores are busy, the thread that serves
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
