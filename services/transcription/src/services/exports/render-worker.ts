import { parentPort } from 'node:worker_threads';
import type { ExportFormat, SpeakerSegment, TranscriptDto } from '@earshot/contracts';
import { openText } from '@earshot/kit/fields';
import { lowerThreadPriority } from '@earshot/kit/threads';
import type { SegmentsOpening } from '../words-encryption';
import { zipFiles, type NamedFile } from './bundle';
import { FORMATS, render } from './formats';

/**
 * What a rendering thread is sent for each export: the job (a ZIP of every transcript sent, its
 * entries dated `mtime` in ms, or the one transcript's file), then each transcript as it is read:
 * without its segments, with what opens them when sealed (the company's key: never in a message
 * back or an error), then their stored text in pieces (readSegmentPieces), then `read`. The pieces
 * are joined, opened and parsed here rather than on the event loop. Then the end.
 */
export type RenderInput =
  | { type: 'job'; format: ExportFormat; zip: { mtime: number } | null }
  | { type: 'transcript'; transcript: TranscriptDto; sealed: SegmentsOpening | null; name: string }
  | { type: 'segments'; piece: string }
  | { type: 'read' }
  | { type: 'end' };

/** What it answers once per export: the bytes (moved, not copied), or that it could not render. */
export type RenderMessage = { type: 'done'; body: Uint8Array } | { type: 'failed'; message: string };

lowerThreadPriority();

const port = parentPort!;
let job: Extract<RenderInput, { type: 'job' }> | null = null;
let files: NamedFile[] = [];
/** The transcript being read, and the pieces of its segments so far. */
let reading: (Extract<RenderInput, { type: 'transcript' }> & { pieces: string[] }) | null = null;

/** The segments' JSON text from their pieces: the elements' text joined, or the sealed value joined and opened. */
function segmentsText(pieces: string[], sealed: SegmentsOpening | null): string {
  if (!sealed) return `[${pieces.join(',')}]`;
  const key = Buffer.from(sealed.key.buffer, sealed.key.byteOffset, sealed.key.byteLength);
  try {
    return openText(key, sealed.context, pieces.join(''));
  } finally {
    // The thread's copy of the key is gone once the segments are open.
    key.fill(0);
  }
}

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
    reading = { ...input, pieces: [] };
    return;
  }
  if (input.type === 'segments') {
    reading!.pieces.push(input.piece);
    return;
  }
  if (input.type === 'read') {
    const { transcript, sealed, name, pieces } = reading!;
    reading = null;
    transcript.metadata.speakerSegments = JSON.parse(segmentsText(pieces, sealed)) as SpeakerSegment[];
    // Each is rendered once read, so only the files stay in memory, not every whole transcript.
    files.push({ name, data: await render(transcript, job.format), compressed: FORMATS[job.format].compressed });
    return;
  }
  const done = files;
  const zip = job.zip;
  // Nothing of this export stays in the thread once it has answered.
  job = null;
  files = [];
  reading = null;
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
      reading = null;
      port.postMessage({ type: 'failed', message: String(error) } satisfies RenderMessage);
    });
});
