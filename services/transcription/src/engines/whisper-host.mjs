// The worker thread that holds one whisper.cpp model (WhisperHost in whisper.ts starts it).
//
// Plain JavaScript on purpose: a worker thread starts a fresh module loader, which has neither
// tsx's (production) nor jest's (tests) TypeScript transform, so this file must run as it is.
// It does only what needs the native context; every decision (which model, language, timeouts,
// turning tokens into words) is made in whisper.ts on the main side.
//
// Messages in:  {type: 'load', id, path, useGpu} · {type: 'transcribe', id, pcm, options} · {type: 'stop'}
// Messages out: {id, ok: true, result?} · {id, ok: false, error}
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const { WhisperContext } = require(workerData.packageName);

/** @type {{ path: string, context: any } | null} */
let loaded = null;
/** Aborts the transcription under way (the binding's stop), when there is one. */
let stopCurrent = null;

const reply = (id, body) => parentPort.postMessage({ id, ...body });
const failure = (error) => (error instanceof Error ? error.message : String(error));

async function load(path, useGpu) {
  if (loaded?.path === path) return;
  if (loaded) await loaded.context.release();
  loaded = null;
  // Loading reads the whole file (up to 1.6 GB) synchronously: the reason it happens here.
  loaded = { path, context: new WhisperContext({ filePath: path, useGpu }) };
}

async function transcribe(pcm, options) {
  if (!loaded) throw new Error('no model is loaded');
  const { stop, promise } = loaded.context.transcribeData(pcm, options);
  stopCurrent = stop;
  try {
    const { language, segments, isAborted } = await promise;
    return { language, segments, isAborted };
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
