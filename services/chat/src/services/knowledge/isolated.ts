import { runInThread } from '@earshot/kit';
import type { KnowledgeFormat } from '@earshot/contracts';
import type { Extracted } from './extract';
import type { ExtractionJob, ExtractionMessage } from './extract-worker';
import { ExtractionFailure, type ExtractionLimits } from './limits';

/** The process is stopping: the file was not read and goes back to the queue, not counted. */
export class ExtractionStopped extends Error {
  constructor() {
    super('extraction stopped: the process is stopping');
    this.name = 'ExtractionStopped';
  }
}

/**
 * Reads one knowledge file in a thread of its own (extract-thread.mjs, through the kit's
 * runInThread), so the event loop that serves requests never parses untrusted bytes: past its time
 * or memory limit the thread is ended. A refusal rejects with an ExtractionFailure; `signal` (the
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
  return runInThread<ExtractionMessage, Extracted>(new URL('./extract-thread.mjs', import.meta.url), {
    workerData: job,
    transferList: [bytes.buffer],
    limits,
    signal,
    onMessage: (message, finish) => {
      if (message.type === 'progress') onProgress(message.done, message.total);
      else if (message.type === 'done') finish.resolve(message.extracted);
      else finish.reject(new ExtractionFailure(message.refusal));
    },
    failure: (end, cause) =>
      end === 'stopped' ? new ExtractionStopped() : new ExtractionFailure({ kind: end }, cause),
  }).result;
}
