/**
 * `npm run bench:transcription`: figures for the README of services/transcription.
 *  (a) Offline engine real-time factor on a ~10-minute espeak-ng recording: our pipeline (ffmpeg
 *      preparation, cuts at silences, pieces decoded in parallel) against one plain
 *      `pocketsphinx_continuous` run on the same 16 kHz WAV; their ratio; and how far the two
 *      agree on the words (longest common subsequence).
 *  (b) The offline Whisper engine on the same recording through the same pipeline (30-second
 *      pieces on the worker's one whisper thread), with the tiny generated test model of the tests
 *      (1.8 MB, random weights): what it measures is the engine's plumbing and whisper.cpp's fixed
 *      cost per 30-second window on this machine, not a real model's speed or accuracy (those come
 *      from an operator's machine with a downloaded model: set BENCH_WHISPER_MODEL to its file).
 *  (c) The file engineer's upload benchmark (scripts/bench-upload.ts, benchUpload()) when present.
 * BENCH_MINUTES (default 10) sets the length; BENCH_CONCURRENCY the decoders (default: the cores).
 */
import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { LocalDiskStorage } from '@earshot/kit';
import { Limiter, PocketSphinxEngine, parsePocketSphinx, transcribeStoredAudio } from '@earshot/transcription-service';
import type { SpeechEngine } from '../services/transcription/src/engines/types';
import { WhisperEngine, WhisperHost } from '../services/transcription/src/engines/whisper';
import { writeTinyWhisperModel } from '../services/transcription/test/tiny-whisper';

const minutes = Number(process.env.BENCH_MINUTES ?? 10);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? availableParallelism());
const dir = mkdtempSync(join(tmpdir(), 'earshot-bench-stt-'));

const SENTENCES = [
  'Hello, thank you for calling. How can I help you today?',
  'My account number is four five six seven eight nine.',
  'I would like to change the address on my account.',
  'One two three four five six seven eight nine ten.',
  'Good morning. The weather is nice and the meeting starts at ten.',
  'Please hold the line while I check your details.',
  'The order was sent on Monday and should arrive on Friday.',
  'Thank you very much for your help. Good bye.',
];

/** CPU seconds used so far by this process and the children it has waited for (Linux /proc). */
function cpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  // After "pid (comm) ": utime, stime, cutime, cstime are fields 12-15 (0-based), in clock ticks.
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
  return ticks / 100;
}

const normalise = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z' ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);

function makeRecording(): { wav16: string; duration: number; spoken: string[] } {
  // About 150 words a minute; sentences end in pauses, where the pipeline may cut.
  const text: string[] = [];
  for (let i = 0; text.join(' ').split(' ').length < minutes * 150; i++) text.push(SENTENCES[i % SENTENCES.length]!);
  const textFile = join(dir, 'speech.txt');
  writeFileSync(textFile, text.join('\n\n'));
  const raw = join(dir, 'speech.wav');
  execFileSync('espeak-ng', ['-v', 'en-us+m1', '-s', '160', '-g', '4', '-f', textFile, '-w', raw]);
  const wav16 = join(dir, 'speech-16k.wav');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', raw, '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', wav16]);
  const duration = Number(
    execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', wav16]).toString(),
  );
  return { wav16, duration, spoken: normalise(text.join(' ')) };
}

interface Run {
  seconds: number;
  cpu: number;
  words: string[];
}

async function plainRun(wav: string): Promise<Run> {
  const started = performance.now();
  const cpu = cpuSeconds();
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = spawn('pocketsphinx_continuous', ['-infile', wav, '-time', 'yes'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
    });
    child.once('error', reject);
    child.once('close', () => resolve(out));
  });
  return {
    seconds: (performance.now() - started) / 1000,
    cpu: cpuSeconds() - cpu,
    words: parsePocketSphinx(stdout).map((w) => w.text),
  };
}

async function ourRun(
  wav: string,
  engine: SpeechEngine = new PocketSphinxEngine({ binary: 'pocketsphinx_continuous', chunkSeconds: 60 }),
): Promise<Run & { peaksBytes: number }> {
  const storage = new LocalDiskStorage(join(dir, 'objects'));
  await storage.put('bench/recording', createReadStream(wav), { contentType: 'audio/wav' });
  const started = performance.now();
  const cpu = cpuSeconds();
  const result = await transcribeStoredAudio(
    { storage, engine, ffmpeg: { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' }, decoders: new Limiter(concurrency) },
    'bench/recording',
    new AbortController().signal,
    join(dir, 'work'),
    'en',
  );
  const seconds = (performance.now() - started) / 1000;
  const words = result.segments.flatMap((s) => s.words.map((w) => w.text));
  return { seconds, cpu: cpuSeconds() - cpu, words, peaksBytes: Buffer.byteLength(JSON.stringify(result.peaks)) };
}

/** Longest common subsequence of two word lists (how many words both runs heard, in order). */
function lcs(a: readonly string[], b: readonly string[]): number {
  let previous = new Uint32Array(b.length + 1);
  for (const word of a) {
    const row = new Uint32Array(b.length + 1);
    for (let j = 1; j <= b.length; j++)
      row[j] = word === b[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, row[j - 1]!);
    previous = row;
  }
  return previous[b.length]!;
}

/** (b): whisper on the recording; the model is loaded first on a second of silence, so the run measures recognition only. */
async function whisperRun(wav: string, duration: number): Promise<void> {
  const own = process.env.BENCH_WHISPER_MODEL;
  const path = own ?? join(dir, 'ggml-tiny-test.bin');
  const sizeBytes = own ? statSync(own).size : writeTinyWhisperModel(path).sizeBytes;
  const model = {
    name: own ? basename(own) : 'tiny-test (generated, random weights)',
    path,
    languages: 'multilingual' as const,
    sizeBytes,
  };
  const threads = availableParallelism();
  const host = new WhisperHost({ variant: 'cpu', threads, timeoutMs: 3_600_000 });
  try {
    const silence = join(dir, 'silence.wav');
    execFileSync('sox', ['-V1', '-n', '-r', '16000', '-c', '1', '-b', '16', silence, 'trim', '0', '1']);
    const warm = new WhisperEngine(host, model);
    await warm.check();
    const loadStarted = performance.now();
    await warm.transcribe(silence, undefined, 'en');
    console.log(
      `\n(b) whisper, model ${model.name}, ${threads} thread(s): load + one 1-second piece ${((performance.now() - loadStarted) / 1000).toFixed(2)} s`,
    );
    const engine = new WhisperEngine(host, model);
    await engine.check();
    const run = await ourRun(wav, engine);
    console.log(
      `    ours (prepare + cut at silences into ≤ 30 s pieces + whisper + peaks): ${run.seconds.toFixed(1)} s wall (RTF ${(run.seconds / duration).toFixed(3)}), ${run.cpu.toFixed(1)} s CPU of this process (RTF ${(run.cpu / duration).toFixed(3)}), ${run.words.length} words`,
    );
    if (!own)
      console.log(
        "    (random weights: the words mean nothing; a real model's figures come from an operator's machine, BENCH_WHISPER_MODEL=<ggml file>)",
      );
  } finally {
    await host.close();
  }
}

async function uploadFigures(): Promise<void> {
  const path = join(import.meta.dirname, 'bench-upload.ts');
  if (!existsSync(path)) {
    console.log('\n(c) upload: scripts/bench-upload.ts is not there yet; no figures');
    return;
  }
  let module: { benchUpload?: () => Promise<unknown> };
  try {
    module = (await import(pathToFileURL(path).href)) as typeof module;
  } catch (error) {
    console.log(`\n(c) upload: scripts/bench-upload.ts could not be loaded: ${(error as Error).message}`);
    return;
  }
  if (typeof module.benchUpload !== 'function') {
    console.log('\n(c) upload: scripts/bench-upload.ts exports no benchUpload()');
    return;
  }
  console.log('\n(c) upload (benchUpload() from scripts/bench-upload.ts):');
  try {
    console.log(JSON.stringify(await module.benchUpload(), null, 2));
  } catch (error) {
    console.log(`    failed: ${(error as Error).message}`);
  }
}

try {
  console.log(`(a) offline engine on a ${minutes}-minute espeak-ng recording, ${concurrency} decoder(s)`);
  const { wav16, duration, spoken } = makeRecording();
  console.log(`    audio: ${duration.toFixed(1)} s of 16 kHz mono speech`);
  const loadBefore = loadavg()[0]!;
  const plain = await plainRun(wav16);
  console.log(
    `    plain pocketsphinx_continuous: ${plain.seconds.toFixed(1)} s wall (RTF ${(plain.seconds / duration).toFixed(3)}), ${plain.cpu.toFixed(1)} s CPU (RTF ${(plain.cpu / duration).toFixed(3)}), ${plain.words.length} words`,
  );
  const ours = await ourRun(wav16);
  console.log(
    `    ours (prepare + cut at silences + ${concurrency} parallel decoders + peaks): ${ours.seconds.toFixed(1)} s wall (RTF ${(ours.seconds / duration).toFixed(3)}), ${ours.cpu.toFixed(1)} s CPU (RTF ${(ours.cpu / duration).toFixed(3)}), ${ours.words.length} words`,
  );
  console.log(
    `    wall-clock speed-up (plain / ours): ${(plain.seconds / ours.seconds).toFixed(2)}x; CPU cost (ours / plain): ${(ours.cpu / plain.cpu).toFixed(2)}x`,
  );
  console.log(
    `    machine load (1-min average) before / after: ${loadBefore.toFixed(1)} / ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores (wall figures are only meaningful on an idle machine)`,
  );
  const common = lcs(plain.words, ours.words);
  console.log(
    `    word agreement: ${common} words in common, in order = ${((100 * common) / Math.max(1, plain.words.length)).toFixed(1)}% of the plain run's words, ${((100 * 2 * common) / Math.max(1, plain.words.length + ours.words.length)).toFixed(1)}% (F1)`,
  );
  const heard = (words: string[]) => `${((100 * lcs(spoken, words)) / spoken.length).toFixed(1)}%`;
  console.log(
    `    words spoken (${spoken.length}) that each run heard, in order: plain ${heard(plain.words)}, ours ${heard(ours.words)}`,
  );
  console.log(`    waveform peaks JSON: ${(ours.peaksBytes / 1024).toFixed(1)} KiB`);
  await whisperRun(wav16, duration);
  if (process.env.BENCH_UPLOAD !== 'false') await uploadFigures();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
