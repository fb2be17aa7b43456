import { Worker } from 'node:worker_threads';
import type { KnowledgeFormat } from '@earshot/contracts';
import type { Extracted } from './extract';
import type { ExtractionJob, ExtractionMessage } from './extract-worker';
import { ExtractionFailure, type ExtractionLimits, type Refusal } from './limits';

/** The process is stopping: the file was not read and goes back to the queue, not counted. */
export class ExtractionStopped extends Error {
  constructor() {
    super('extraction stopped: the process is stopping');
    this.name = 'ExtractionStopped';
  }
}

const MB = 1024 * 1024;
/** How often resident memory is looked at while a file is read. */
const MEMORY_CHECK_MS = 100;

/**
 * Reads one knowledge file in a thread of its own (extract-thread.mjs), so the event loop that
 * serves requests never parses untrusted bytes. Its JavaScript heap is capped by V8
 * (`resourceLimits`); what lies outside that heap (the buffers a PDF stream inflates into) is
 * watched here: resident memory growing more than twice the heap limit ends the thread as running
 * out of memory. Past `timeoutMs` it is ended too. Each file gets a new thread, ended when it
 * answers: nothing it held is kept. A refusal rejects with an ExtractionFailure; `signal` (the
 * process stopping) ends the thread and rejects with ExtractionStopped.
 */
export function extractIsolated(
  format: KnowledgeFormat,
  data: Buffer,
  limits: ExtractionLimits,
  onProgress: (done: number, total: number) => void,
  signal?: AbortSignal,
): Promise<Extracted> {
  if (signal?.aborted) return Promise.reject(new ExtractionStopped());
  // A copy of its own, moved to the thread (a Buffer may be a view of a shared pool).
  const bytes = new Uint8Array(data);
  const job: ExtractionJob = { format, data: bytes, limits };
  const baseline = process.memoryUsage.rss();
  return new Promise<Extracted>((resolve, reject) => {
    const worker = new Worker(new URL('./extract-thread.mjs', import.meta.url), {
      workerData: job,
      transferList: [bytes.buffer],
      // The thread loads its TypeScript itself: none of this process's loader flags are wanted there.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, stackSizeMb: 4 },
      // What a parser prints (pdf.js warns of every oddity of a file) is dropped, not logged.
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    let settled = false;
    const end = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(watch);
      signal?.removeEventListener('abort', stop);
      // Settled once the thread is gone, so its memory is released before the next file starts.
      void worker.terminate().finally(settle);
    };
    const refuse = (refusal: Refusal, cause?: Error) => end(() => reject(new ExtractionFailure(refusal, cause)));
    const stop = () => end(() => reject(new ExtractionStopped()));
    const timer = setTimeout(() => refuse({ kind: 'timeout' }), limits.timeoutMs);
    const watch = setInterval(() => {
      if (process.memoryUsage.rss() - baseline > 2 * limits.memoryMb * MB) refuse({ kind: 'memory' });
    }, MEMORY_CHECK_MS);
    signal?.addEventListener('abort', stop, { once: true });
    worker.on('message', (message: ExtractionMessage) => {
      if (settled) return;
      if (message.type === 'progress') onProgress(message.done, message.total);
      else if (message.type === 'done') end(() => resolve(message.extracted));
      else refuse(message.refusal);
    });
    worker.on('error', (error: Error & { code?: string }) =>
      refuse({ kind: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'crashed' }, error),
    );
    // Ended without an answer (process.exit in a parser, a thread that could not start).
    worker.on('exit', () => refuse({ kind: 'crashed' }));
  });
}
