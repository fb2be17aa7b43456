import { parentPort } from 'node:worker_threads';
import type { ExportFormat, TranscriptDto } from '@earshot/contracts';
import { lowerThreadPriority } from '@earshot/kit/threads';
import { zipFiles, type NamedFile } from './bundle';
import { FORMATS, render } from './formats';

/**
 * What a rendering thread is sent for each export: the job (a ZIP of every transcript sent, its
 * entries dated `mtime` in ms, or the one transcript's file), then each transcript as it is read
 * (its segments apart, as their JSON text, parsed here rather than on the event loop), then the end.
 */
export type RenderInput =
  | { type: 'job'; format: ExportFormat; zip: { mtime: number } | null }
  | { type: 'transcript'; transcript: TranscriptDto; segments: string; name: string }
  | { type: 'end' };

/** What it answers once per export: the bytes (moved, not copied), or that it could not render. */
export type RenderMessage = { type: 'done'; body: Uint8Array } | { type: 'failed'; message: string };

lowerThreadPriority();

const port = parentPort!;
let job: Extract<RenderInput, { type: 'job' }> | null = null;
let files: NamedFile[] = [];

const answer = (body: Uint8Array<ArrayBuffer>) =>
  port.postMessage({ type: 'done', body } satisfies RenderMessage, [body.buffer]);

async function receive(input: RenderInput): Promise<void> {
  if (input.type === 'job') {
    job = input;
    return;
  }
  // After a failure (answered once) the rest of that export's messages are dropped.
  if (!job) return;
  if (input.type === 'transcript') {
    const { transcript, segments, name } = input;
    transcript.metadata.speakerSegments = JSON.parse(segments) as TranscriptDto['metadata']['speakerSegments'];
    // Each is rendered as it arrives, so only the files stay in memory, not every whole transcript.
    files.push({ name, data: await render(transcript, job.format), compressed: FORMATS[job.format].compressed });
    return;
  }
  const done = files;
  const zip = job.zip;
  // Nothing of this export stays in the thread once it has answered.
  job = null;
  files = [];
  // A copy of its own to move: a small Buffer may be a view of a pool shared with others.
  answer(zip ? zipFiles(done, new Date(zip.mtime)) : new Uint8Array(done[0]!.data));
}

// One message at a time, in order: an async render must finish before the next (or the end) is read.
let chain = Promise.resolve();
port.on('message', (input: RenderInput) => {
  chain = chain
    .then(() => receive(input))
    .catch((error: unknown) => {
      job = null;
      files = [];
      port.postMessage({ type: 'failed', message: String(error) } satisfies RenderMessage);
    });
});
