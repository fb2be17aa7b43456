import { parentPort, workerData } from 'node:worker_threads';
import type { ExportFormat, TranscriptDto } from '@earshot/contracts';
import { lowerThreadPriority } from '@earshot/kit/threads';
import { zipFiles, type NamedFile } from './bundle';
import { FORMATS, render } from './formats';

/** What a rendering thread is given (workerData). */
export interface RenderJob {
  format: ExportFormat;
  /** A ZIP of every transcript sent (its entries dated `mtime`, ms), or the one transcript's file. */
  zip: { mtime: number } | null;
}

/**
 * What the thread is sent: each transcript as it is read (its segments apart, as their JSON text,
 * parsed here rather than on the event loop), then the end.
 */
export type RenderInput =
  { type: 'transcript'; transcript: TranscriptDto; segments: string; name: string } | { type: 'end' };

/** What it answers once: the bytes (moved, not copied), or that it could not render. */
export type RenderMessage = { type: 'done'; body: Uint8Array } | { type: 'failed'; message: string };

lowerThreadPriority();

const job = workerData as RenderJob;
const port = parentPort!;
const files: NamedFile[] = [];
const { compressed } = FORMATS[job.format];

const answer = (body: Uint8Array<ArrayBuffer>) =>
  port.postMessage({ type: 'done', body } satisfies RenderMessage, [body.buffer]);

async function receive(input: RenderInput): Promise<void> {
  if (input.type === 'transcript') {
    const { transcript, segments, name } = input;
    transcript.metadata.speakerSegments = JSON.parse(segments) as TranscriptDto['metadata']['speakerSegments'];
    // Each is rendered as it arrives, so only the files stay in memory, not every whole transcript.
    files.push({ name, data: await render(transcript, job.format), compressed });
    return;
  }
  // A copy of its own to move: a small Buffer may be a view of a pool shared with others.
  if (!job.zip) return answer(new Uint8Array(files[0]!.data));
  answer(zipFiles(files, new Date(job.zip.mtime)));
}

// One message at a time, in order: an async render must finish before the next (or the end) is read.
let chain = Promise.resolve();
port.on('message', (input: RenderInput) => {
  chain = chain
    .then(() => receive(input))
    .catch((error: unknown) => {
      port.postMessage({ type: 'failed', message: String(error) } satisfies RenderMessage);
    });
});
