import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { KnowledgeFormat } from '@earshot/contracts';
import { extractText, type Extracted } from './extract';
import { ExtractionFailure, type ExtractionLimits, type Refusal } from './limits';

/** What the extractor thread is given (workerData): the file's bytes are moved, not copied. */
export interface ExtractionJob {
  format: KnowledgeFormat;
  data: Uint8Array;
  limits: ExtractionLimits;
}

/** What it answers, in order: progress of each PDF page, then one outcome. */
export type ExtractionMessage =
  | { type: 'progress'; done: number; total: number }
  | { type: 'done'; extracted: Extracted }
  | { type: 'refused'; refusal: Refusal };

// When the cores are busy, the thread that serves requests goes first: on Linux a thread has a nice
// value of its own (/proc/thread-self names its id). 10, not the lowest: on a machine busy with
// other work the reading still gets its share before its time limit.
try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 10);
} catch {
  // Elsewhere it keeps the process's priority.
}

const job = workerData as ExtractionJob;
const post = (message: ExtractionMessage) => parentPort!.postMessage(message);

try {
  const data = Buffer.from(job.data.buffer, job.data.byteOffset, job.data.byteLength);
  const extracted = await extractText(job.format, data, job.limits, (done, total) =>
    post({ type: 'progress', done, total }),
  );
  post({ type: 'done', extracted });
} catch (error) {
  // Anything else (a parser's own exception) says nothing a person could act on.
  post({ type: 'refused', refusal: error instanceof ExtractionFailure ? error.refusal : { kind: 'unreadable' } });
}
