// The worker thread that holds one whisper.cpp model (WhisperHost in whisper.ts starts it).
//
// Plain JavaScript on purpose: a worker thread starts a fresh module loader, which has neither
// tsx's (production) nor jest's (tests) TypeScript transform, so this file must run as it is.
// It does only what needs the native context; every decision (which model, language, timeouts,
// turning tokens into words) is made in whisper.ts on the main side.
//
// Two ways to whisper.cpp, chosen once when the thread starts:
// - its C API through koffi (whisper-ffi.mjs) on the binding's own library, which gives each
//   token's probability, when koffi is installed and the library's parameter layout is the one
//   whisper-ffi.mjs declares;
// - otherwise the binding's JavaScript (`WhisperContext`), whose tokens have no probability; the
//   reason is sent with each load's answer, and whisper.ts logs it.
//
// Messages in:  {type: 'load', id, path, useGpu} · {type: 'transcribe', id, pcm, options: {language, threads}} · {type: 'stop'}
// Messages out: {id, ok: true, result?} · {id, ok: false, error}
// workerData:   {packageName, abortFlag}: abortFlag is a SharedArrayBuffer whose first byte the main
//               side sets to stop the transcription under way (this thread is inside whisper.cpp
//               then, and reads no message until it returns).
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { openWhisperLibrary } from './whisper-ffi.mjs';

const require = createRequire(import.meta.url);
const { packageName, abortFlag } = workerData;
const failure = (error) => (error instanceof Error ? error.message : String(error));

/** whisper.cpp through koffi, or null with the reason in `fallback`. */
let ffi = null;
let fallback = null;
try {
  let koffi;
  try {
    koffi = require('koffi');
  } catch (error) {
    throw new Error(`koffi is not installed (${failure(error).split('\n')[0]})`, { cause: error });
  }
  const library = openWhisperLibrary(koffi, require.resolve(packageName));
  const problems = library.layoutProblems();
  if (problems.length) {
    const more = problems.length > 3 ? `; and ${problems.length - 3} more` : '';
    throw new Error(
      `whisper.cpp in ${packageName} does not lay out its parameters as whisper-ffi.mjs declares them: ${problems.slice(0, 3).join('; ')}${more}`,
    );
  }
  ffi = library;
} catch (error) {
  fallback = `Whisper words get no confidence: ${failure(error)}`;
}

/** @type {{ path: string, context: any } | null} */
let loaded = null;
/** Aborts the binding's transcription under way, when there is one. */
let stopCurrent = null;

const reply = (id, body) => parentPort.postMessage({ id, ...body });

async function release() {
  if (!loaded) return;
  if (ffi) ffi.free(loaded.context);
  else await loaded.context.release();
  loaded = null;
}

async function load(path, useGpu) {
  if (loaded?.path !== path) {
    await release();
    // Loading reads the whole file (up to 1.6 GB) synchronously: the reason it happens here.
    const context = ffi
      ? ffi.load(path, useGpu)
      : new (require(packageName).WhisperContext)({ filePath: path, useGpu });
    loaded = { path, context };
  }
  return fallback ? { fallback } : {};
}

async function transcribe(pcm, { language, threads }) {
  if (!loaded) throw new Error('no model is loaded');
  if (ffi) {
    const samples = Float32Array.from(new Int16Array(pcm), (value) => value / 32768);
    return ffi.transcribe(loaded.context, samples, { language, threads, abortFlag });
  }
  // One segment per token (maxLen 1) with token timestamps: the binding's nearest to tokens.
  const { stop, promise } = loaded.context.transcribeData(pcm, {
    language,
    maxThreads: threads,
    tokenTimestamps: true,
    maxLen: 1,
  });
  stopCurrent = stop;
  try {
    const { language: heard, segments, isAborted } = await promise;
    return { language: heard, tokens: segments, isAborted };
  } finally {
    stopCurrent = null;
  }
}

parentPort.on('message', (message) => {
  if (message.type === 'stop') {
    // Whatever the binding answers, the transcription's own promise reports the end.
    if (stopCurrent) Promise.resolve(stopCurrent()).catch(() => {});
    return;
  }
  const work = message.type === 'load' ? load(message.path, message.useGpu) : transcribe(message.pcm, message.options);
  work.then(
    (result) => reply(message.id, { ok: true, result }),
    (error) => reply(message.id, { ok: false, error: failure(error) }),
  );
});
