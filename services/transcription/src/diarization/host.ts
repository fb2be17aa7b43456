import { fork, type ChildProcess } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { metadataProblem } from './onnx-metadata';

/** A stretch of audio one speaker holds, in seconds; `speaker` is the diarizer's cluster number. */
export interface Turn {
  start: number;
  end: number;
  speaker: number;
}

export interface DiarizationModels {
  segmentation: string;
  embedding: string;
}

export interface DiarizerOptions {
  /** Clustering threshold when the number of speakers is not given (smaller: more speakers). */
  threshold: number;
  threads: number;
}

/** Thrown when a diarization cannot run; the message says why (the transcript then keeps one speaker). */
export class DiarizationError extends Error {}

const require = createRequire(import.meta.url);

/** Whether the optional sherpa-onnx packages are installed for this platform. */
function sherpaInstalled(): boolean {
  try {
    require.resolve('sherpa-onnx-node');
    return true;
  } catch {
    return false;
  }
}

interface Pending {
  resolve: (turns: Turn[]) => void;
  reject: (error: Error) => void;
}

/**
 * The worker's one speaker diarizer: a child process (child.mjs) that keeps the models loaded
 * across jobs, forked at first use and again after it died. Each model's metadata is checked
 * here first (once per file version), so a model sherpa-onnx would exit on is refused with a reason.
 */
export class DiarizerHost {
  private child: ChildProcess | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private readonly checked = new Map<string, string | null>();

  constructor(private readonly options: DiarizerOptions) {}

  private async problemOf(path: string, kind: 'segmentation' | 'embedding'): Promise<string | null> {
    const info = await stat(path).catch(() => null);
    if (!info) return `the ${kind} model file ${path} is missing`;
    const key = `${path}:${info.size}:${info.mtimeMs}`;
    if (!this.checked.has(key)) this.checked.set(key, await metadataProblem(path, kind));
    return this.checked.get(key)!;
  }

  private start(): ChildProcess {
    if (this.child) return this.child;
    const child = fork(fileURLToPath(new URL('./child.mjs', import.meta.url)), [], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      execArgv: [],
    });
    let said = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      said = (said + chunk.toString()).slice(-400);
    });
    child.on('message', (message: { id: number; ok: boolean; turns?: Turn[]; error?: string }) => {
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      // sherpa-onnx answers "no speakers" with no turns and only a line on stderr; said here, a
      // recording left with one speaker for that reason is logged like any other failure.
      if (message.ok && message.turns?.length) waiting?.resolve(message.turns);
      else if (message.ok) waiting?.reject(new DiarizationError('the diarizer heard no speaker in the recording'));
      else waiting?.reject(new DiarizationError(`the diarizer failed: ${message.error}`));
    });
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      const why = said.trim().split('\n').pop() ?? '';
      const error = new DiarizationError(
        `the diarizer stopped (${signal ?? `exit code ${code}`})${why ? `: ${why}` : ''}`,
      );
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    });
    this.child = child;
    return child;
  }

  /**
   * Speaker turns of a 16 kHz mono WAV; `speakers` is how many there are (null: the clustering
   * threshold decides); never empty (no speaker heard is a DiarizationError). An abort leaves the
   * diarizer running for the other jobs; this job stops waiting.
   */
  async diarize(
    models: DiarizationModels,
    wavPath: string,
    speakers: number | null,
    signal: AbortSignal,
  ): Promise<Turn[]> {
    if (!sherpaInstalled())
      throw new DiarizationError(
        'sherpa-onnx-node is not installed (an optional dependency, missing on this platform)',
      );
    const problem =
      (await this.problemOf(models.segmentation, 'segmentation')) ??
      (await this.problemOf(models.embedding, 'embedding'));
    if (problem) throw new DiarizationError(problem);
    signal.throwIfAborted();
    const child = this.start();
    const id = this.nextId++;
    return new Promise<Turn[]>((resolve, reject) => {
      const stop = () => {
        this.pending.delete(id);
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      signal.addEventListener('abort', stop, { once: true });
      const settle =
        <T>(fn: (value: T) => void) =>
        (value: T) => {
          signal.removeEventListener('abort', stop);
          fn(value);
        };
      this.pending.set(id, { resolve: settle(resolve), reject: settle(reject) });
      child.send({
        id,
        ...models,
        wav: wavPath,
        numClusters: speakers ?? -1,
        threshold: this.options.threshold,
        threads: this.options.threads,
      });
    });
  }

  /** Ends the child (the worker is stopping). */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill();
    });
  }
}
