import { parentPort, workerData } from 'node:worker_threads';
import type { KnowledgeFormat } from '@earshot/contracts';
import { lowerThreadPriority } from '@earshot/kit/threads';
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

lowerThreadPriority();

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
