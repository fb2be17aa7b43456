import { createRequire } from 'node:module';
import { open, stat } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import type { WhisperVariant } from '../config';
import { readWavInfo } from '../audio/wav';
import type { ReadyModel } from '../models/store';
import { JobError } from '../services/job-error';
import { englishOnly } from './language';
import type { RecognisedWord, Recognition, SpeechEngine } from './types';

/** The binding's version pinned in package.json; an operator installs the GPU builds at the same one. */
export const WHISPER_BINDING_VERSION = '1.2.0-rc.0';

/**
 * whisper.cpp encodes 30 seconds of audio at a time, and a shorter piece costs as much (it is
 * padded to the window). Pieces of at most 30 s, cut at silences by the pipeline, use each encoder
 * pass fully and never let whisper.cpp cut a window in the middle of a word on its own.
 */
export const WHISPER_WINDOW_SECONDS = 30;

const GGML_MAGIC = 0x67676d6c;
/** whisper.cpp's vocabulary size of multilingual models; English-only ones have one token fewer. */
const MULTILINGUAL_VOCAB = 51865;
const DOWNLOAD_AGAIN = 'download the model again on AI Configuration';

/** Our own loader of the platform package (the wrapper package would install every GPU build too). */
export function whisperPackage(variant: WhisperVariant): string {
  return `@fugood/node-whisper-${process.platform}-${process.arch}${variant === 'cpu' ? '' : `-${variant}`}`;
}

const require = createRequire(import.meta.url);

function assertInstalled(variant: WhisperVariant): void {
  const name = whisperPackage(variant);
  try {
    require.resolve(name);
  } catch {
    const otherwise = variant === 'cpu' ? '' : ', or set WHISPER_VARIANT=cpu';
    throw new JobError(
      `The Whisper engine's native package ${name} is not installed on this server: run npm install ${name}@${WHISPER_BINDING_VERSION} -w services/transcription${otherwise}`,
      false,
    );
  }
}

/**
 * A model is used only as it was checked: the file is there, has the size it had when its SHA-256
 * matched, and starts with whisper.cpp's magic. Returns whether it is English-only (its catalogue
 * entry says so, or its vocabulary is the English one) and a version that changes with the file.
 */
export async function checkWhisperModel(model: ReadyModel): Promise<{ englishOnly: boolean; version: string }> {
  let info;
  try {
    info = await stat(model.path);
  } catch {
    throw new JobError(`The Whisper model ${model.name} is missing from this server's disk: ${DOWNLOAD_AGAIN}`, false);
  }
  if (info.size !== model.sizeBytes) {
    throw new JobError(
      `The Whisper model ${model.name} is incomplete or has changed on disk (${info.size} bytes instead of ${model.sizeBytes}): ${DOWNLOAD_AGAIN}`,
      false,
    );
  }
  const head = Buffer.alloc(8);
  const handle = await open(model.path, 'r');
  try {
    await handle.read(head, 0, 8, 0);
  } finally {
    await handle.close();
  }
  if (head.readUInt32LE(0) !== GGML_MAGIC)
    throw new JobError(
      `The file of the Whisper model ${model.name} is not a whisper.cpp model: ${DOWNLOAD_AGAIN}`,
      false,
    );
  return {
    englishOnly: model.languages === 'en' || head.readInt32LE(4) < MULTILINGUAL_VOCAB,
    version: `${model.path}:${info.size}:${info.mtimeMs}`,
  };
}

/**
 * One text token: its text, its time in milliseconds and, through whisper.cpp's C API (not the
 * binding's JavaScript), the probability whisper gave it.
 */
export interface TimedToken {
  text: string;
  t0: number;
  t1: number;
  p?: number;
}

/** A letter or a digit: a token without one (",", "-") is punctuation, not part of what was said. */
const SPOKEN = /[\p{L}\p{N}]/u;

/**
 * A word's confidence: the lowest probability of its tokens. A word is right only if every piece
 * of it is: whisper is usually unsure of a word's first piece and sure of the rest once that is
 * chosen, so a mean would lift a 0.3 first piece above the viewer's "unsure" line (0.6) with
 * one 0.99 ending. Punctuation joined to the word does not count (an unsure comma is not an unsure
 * word), unless the word is nothing else. None when a token has no probability.
 */
function wordConfidence(tokens: readonly TimedToken[]): { confidence?: number } {
  const spoken = tokens.filter((token) => SPOKEN.test(token.text));
  const probabilities = (spoken.length ? spoken : tokens).map((token) => token.p);
  if (!probabilities.every((p): p is number => p !== undefined && Number.isFinite(p))) return {};
  const lowest = Math.min(1, Math.max(0, Math.min(...probabilities)));
  return { confidence: Math.round(lowest * 1000) / 1000 };
}

/**
 * Whisper's tokens are pieces of words; a token that begins with a space begins a word. Times go
 * from milliseconds to seconds, stay inside the piece and never run backwards.
 */
export function wordsFromTokens(tokens: readonly TimedToken[], duration: number): RecognisedWord[] {
  const words: { word: RecognisedWord; tokens: TimedToken[] }[] = [];
  const clamp = (ms: number) => Math.min(duration, Math.max(0, Math.round(ms) / 1000));
  let current: { word: RecognisedWord; tokens: TimedToken[] } | null = null;
  for (const token of tokens) {
    const startsWord = /^\s/.test(token.text) || current === null;
    const text = token.text.trim();
    if (!text) {
      current = null;
      continue;
    }
    const previousEnd = words.at(-1)?.word.end ?? 0;
    const end = Math.max(clamp(token.t1), previousEnd);
    if (startsWord || !current) {
      const start = Math.max(clamp(token.t0), previousEnd);
      current = { word: { text, start, end: Math.max(start, end) }, tokens: [token] };
      words.push(current);
    } else {
      current.word.text += text;
      current.word.end = Math.max(current.word.end, end);
      current.tokens.push(token);
    }
  }
  return words.map(({ word, tokens: pieces }) => ({ ...word, ...wordConfidence(pieces) }));
}

interface HostOutput {
  language?: string;
  tokens: TimedToken[];
  isAborted: boolean;
}

/** What the thread says after loading: when its tokens come without probabilities, why. */
interface LoadOutput {
  fallback?: string;
}

interface Call {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

export interface WhisperHostOptions {
  variant: WhisperVariant;
  threads: number;
  timeoutMs: number;
  /** Where to say that whisper.cpp's C API could not be used (the words then have no confidence). */
  warn?: (message: string) => void;
}

let loads = 0;
/** How many times a model has been loaded in this process (the tests check it is once per worker, not per piece). */
export const whisperModelLoads = () => loads;

/** After asking the binding to stop, how long to wait before the thread is ended instead. */
const STOP_GRACE_MS = 5_000;

/**
 * The worker thread a transcription worker owns for whisper.cpp: one model loaded, kept across
 * jobs and pieces, loaded again only when another model (or a new file of it) is asked for. Calls
 * run one at a time (the native context takes one at a time anyway), each under a timeout; a
 * piece that will not stop ends the thread, and the next call starts a fresh one. The thread
 * never keeps the process alive (unref).
 */
export class WhisperHost {
  private worker: Worker | null = null;
  private loaded: string | null = null;
  private readonly calls = new Map<number, Call>();
  private nextId = 1;
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * Set to 1 (first byte) to stop the piece under way: the thread waits inside whisper.cpp, which
   * reads it between steps, so a message would only be read once the piece is over.
   */
  private readonly abortFlag = new Uint8Array(new SharedArrayBuffer(2));
  /** Whether the current thread has answered a load (and said how it reaches whisper.cpp). */
  private threadAnswered = false;

  constructor(readonly options: WhisperHostOptions) {}

  assertInstalled(): void {
    assertInstalled(this.options.variant);
  }

  /** One task at a time, in order; a failed task does not stop the ones after it. */
  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./whisper-host.mjs', import.meta.url), {
      workerData: { packageName: whisperPackage(this.options.variant), abortFlag: this.abortFlag.buffer },
    });
    worker.unref();
    worker.on('message', (message: { id: number; ok: boolean; result?: unknown; error?: string }) => {
      const call = this.calls.get(message.id);
      if (!call) return;
      this.calls.delete(message.id);
      if (message.ok) call.resolve(message.result);
      else call.reject(new Error(message.error));
    });
    const gone = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.loaded = null;
      this.threadAnswered = false;
      for (const call of this.calls.values()) call.reject(error);
      this.calls.clear();
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`the whisper thread ended (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private call<T>(message: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.calls.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.thread().postMessage({ ...message, id }, transfer);
    });
  }

  /** Ends the thread (and drops the model); the next call starts another. */
  async close(): Promise<void> {
    const worker = this.worker;
    // A thread inside whisper.cpp ends only once whisper_full returns: make that soon.
    Atomics.store(this.abortFlag, 0, 1);
    if (worker) await worker.terminate();
  }

  /** Recognises 16 kHz mono 16-bit PCM (moved to the thread, not copied) with `model`, loading it first if needed. */
  transcribe(
    model: ReadyModel & { version: string },
    pcm: ArrayBuffer,
    language: string,
    signal?: AbortSignal,
  ): Promise<HostOutput> {
    return this.serial(async () => {
      signal?.throwIfAborted();
      if (this.loaded !== model.version) {
        this.loaded = null;
        let output: LoadOutput;
        try {
          output = await this.call<LoadOutput>({
            type: 'load',
            path: model.path,
            useGpu: this.options.variant !== 'cpu',
          });
        } catch (error) {
          throw new JobError(
            `The Whisper model ${model.name} could not be loaded (${(error as Error).message}): ${DOWNLOAD_AGAIN}`,
            false,
          );
        }
        // Once per thread: the thread chooses its way to whisper.cpp when it starts.
        if (output.fallback && !this.threadAnswered) this.options.warn?.(output.fallback);
        this.threadAnswered = true;
        this.loaded = model.version;
        loads++;
      }
      Atomics.store(this.abortFlag, 0, 0);
      const options = { language, threads: this.options.threads };
      return this.guarded(this.call<HostOutput>({ type: 'transcribe', pcm, options }, [pcm]), signal);
    });
  }

  /** The per-call guard: a timeout (retried later) and the job's abort both stop the piece; one that will not stop ends the thread. */
  private async guarded<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    let interrupted = false;
    const stopped = new Promise<never>((_, fail) => {
      const reject = (error: Error) => {
        interrupted = true;
        fail(error);
      };
      timer = setTimeout(
        () =>
          reject(
            new JobError(
              `Whisper did not finish a piece within ${Math.round(this.options.timeoutMs / 1000)} s (WHISPER_TIMEOUT_MS); it will be tried again`,
              true,
            ),
          ),
        this.options.timeoutMs,
      );
      onAbort = () =>
        reject(signal?.reason instanceof Error ? signal.reason : new DOMException('aborted', 'AbortError'));
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([work, stopped]);
    } catch (error) {
      // The thread must be free again before the next piece is given to it.
      if (interrupted) await this.stop(work);
      throw error;
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Asks whisper.cpp to stop `work`; ends the thread if it has not stopped after a grace period. */
  private async stop(work: Promise<unknown>): Promise<void> {
    const settled = work.then(
      () => true,
      () => true,
    );
    Atomics.store(this.abortFlag, 0, 1);
    this.worker?.postMessage({ type: 'stop' });
    let grace: NodeJS.Timeout | undefined;
    const done = await Promise.race([
      settled,
      new Promise<false>((resolve) => {
        grace = setTimeout(() => resolve(false), STOP_GRACE_MS);
      }),
    ]);
    clearTimeout(grace);
    if (!done) await this.close();
  }
}

/**
 * whisper.cpp in process, from @fugood's prebuilt binding, on a worker thread (WhisperHost): the
 * model is `model` (the default downloaded one, or WHISPER_MODEL), or none with the reason why.
 * Words come from token timestamps, with the lowest probability of their tokens as confidence
 * (whisper.cpp's C API through koffi; none when the thread had to use the binding's JavaScript).
 */
export class WhisperEngine implements SpeechEngine {
  readonly name = 'whisper';
  private checked: { englishOnly: boolean; version: string } | null = null;

  constructor(
    private readonly host: WhisperHost,
    private readonly model: ReadyModel | null,
    private readonly missing = 'No Whisper model is downloaded on this server: download one on AI Configuration',
  ) {}

  maxChunkSeconds(): number {
    return WHISPER_WINDOW_SECONDS;
  }

  private ready(): { model: ReadyModel; checked: { englishOnly: boolean; version: string } } {
    if (!this.model) throw new JobError(this.missing, false);
    if (!this.checked) throw new Error('WhisperEngine.check() must run before the model is used');
    return { model: this.model, checked: this.checked };
  }

  async check(): Promise<void> {
    this.host.assertInstalled();
    if (!this.model) throw new JobError(this.missing, false);
    this.checked = await checkWhisperModel(this.model);
  }

  recognitionLanguage(requested: string): string {
    const { model, checked } = this.ready();
    return checked.englishOnly ? englishOnly(`The Whisper model ${model.name}`, requested) : requested;
  }

  async transcribe(wavPath: string, signal?: AbortSignal, language = 'auto'): Promise<Recognition> {
    const { model, checked } = this.ready();
    const wav = await readWavInfo(wavPath);
    // Its own buffer (never a pooled slice), so it can be moved to the thread whole.
    const pcm = Buffer.alloc(wav.dataBytes - (wav.dataBytes % 2));
    const handle = await open(wavPath, 'r');
    try {
      await handle.read(pcm, 0, pcm.length, wav.dataOffset);
    } finally {
      await handle.close();
    }
    const out = await this.host.transcribe({ ...model, version: checked.version }, pcm.buffer, language, signal);
    if (out.isAborted) throw new JobError('Whisper stopped before the end of a piece; it will be tried again', true);
    return { words: wordsFromTokens(out.tokens, wav.duration), ...(out.language ? { language: out.language } : {}) };
  }
}
