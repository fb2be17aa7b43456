/**
 * `npm run bench:wer`: word error rate of the offline engines on real human speech, scored with
 * NIST sclite (Debian `sctk`) on the LibriVox recordings of Debian's `pocketsphinx-testdata`
 * (/usr/share/pocketsphinx/test/data/librivox: five sentences of "Sense and Sensibility", 24.7 s).
 *
 * Each recording goes through the product's pipeline (transcribeStoredAudio: storage, ffmpeg
 * preparation, cuts at silences, the engine, segments), as a worker runs it, in English:
 *  - PocketSphinx, always (POCKETSPHINX_PATH, TRANSCRIPTION_CHUNK_SECONDS as the service reads them);
 *  - whisper when BENCH_WHISPER_MODEL=<path to a ggml .bin> is set. No real model can be downloaded
 *    on the machines this project is built on: whisper figures come from an operator's machine.
 * Reference and hypotheses are written in sclite `trn` format (lower-case words, punctuation
 * stripped, `(utterance id)` at the end), scored with `sclite -i rm -o sum rsum stdout`, and a table
 * is printed: engine, model, utterances, words, WER, substitutions / deletions / insertions, and the
 * real-time factor (wall and CPU seconds of this process and its children over the audio's length).
 * BENCH_WER_DATA points at another folder with the same layout (`fileids`, `transcription`, WAVs).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { LocalDiskStorage } from '@earshot/kit';
import { Limiter, PocketSphinxEngine, transcribeStoredAudio } from '@earshot/transcription-service';
import type { SpeechEngine } from '../services/transcription/src/engines/types';
import { WhisperEngine, WhisperHost } from '../services/transcription/src/engines/whisper';

const DATA = process.env.BENCH_WER_DATA ?? '/usr/share/pocketsphinx/test/data/librivox';
const INSTALL = 'sudo apt-get install sctk pocketsphinx-testdata';

/** sclite on the PATH, else Debian's: the package puts it under /usr/lib/sctk/bin behind an `sctk` wrapper. */
function findSclite(): string[] | null {
  const runs = (command: string, args: string[]) => spawnSync(command, args, { stdio: 'ignore' }).error === undefined;
  if (runs('sclite', [])) return ['sclite'];
  if (existsSync('/usr/lib/sctk/bin/sclite')) return ['/usr/lib/sctk/bin/sclite'];
  if (runs('sctk', ['sclite'])) return ['sctk', 'sclite'];
  return null;
}

/** Words as sclite compares them: lower case, letters, digits and apostrophes only. */
const words = (text: string): string[] =>
  text
    .toLowerCase()
    .replace(/<\/?s>/g, ' ')
    .replace(/[^a-z0-9' ]+/g, ' ')
    .split(/\s+/)
    .filter((w) => w && w !== "'");

interface Utterance {
  id: string;
  wav: string;
  reference: string[];
}

function readTestData(): Utterance[] {
  const fileids = join(DATA, 'fileids');
  const transcription = join(DATA, 'transcription');
  if (!existsSync(fileids) || !existsSync(transcription)) {
    throw new Error(
      `No test data at ${DATA} (fileids and transcription): install it with \`${INSTALL}\`, or set BENCH_WER_DATA`,
    );
  }
  // Each line: "<s> words </s> (utterance id)".
  const references = new Map<string, string[]>();
  for (const line of readFileSync(transcription, 'utf8').split('\n')) {
    const match = /^(.*)\(([^()]+)\)\s*$/.exec(line.trim());
    if (match) references.set(match[2]!.trim(), words(match[1]!));
  }
  return readFileSync(fileids, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((id) => {
      const reference = references.get(basename(id));
      if (!reference) throw new Error(`${transcription} has no reference for ${id}`);
      const wav = join(DATA, `${id}.wav`);
      if (!existsSync(wav)) throw new Error(`${wav} is missing: reinstall pocketsphinx-testdata`);
      return { id: basename(id), wav, reference };
    });
}

/** CPU seconds used so far by this process and the children it has waited for (Linux /proc). */
function cpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / 100;
}

const trnLine = (text: readonly string[], id: string) => `${text.join(' ')} (${id})\n`;

interface Score {
  utterances: number;
  words: number;
  wer: number;
  sub: number;
  del: number;
  ins: number;
}

/** Scores hyp against ref with sclite and reads its Sum/Avg (percentages) and Sum (counts) rows. */
function score(sclite: string[], ref: string, hyp: string): Score {
  const [command, ...pre] = sclite;
  const out = execFileSync(
    command!,
    [...pre, '-r', ref, 'trn', '-h', hyp, 'trn', '-i', 'rm', '-o', 'sum', 'rsum', 'stdout'],
    { encoding: 'utf8' },
  );
  // | Sum/Avg | # Snt # Wrd | Corr Sub Del Ins Err S.Err |
  const row = (label: string) => {
    const line = out.split('\n').find((l) => new RegExp(`^\\s*\\|\\s*${label}\\s*\\|`).test(l));
    if (!line) throw new Error(`sclite printed no ${label} row:\n${out}`);
    return line.split('|').slice(2).join(' ').trim().split(/\s+/).map(Number);
  };
  const [snt, wrd, , , , , err] = row('Sum/Avg');
  const [, , , sub, del, ins] = row('Sum');
  return { utterances: snt!, words: wrd!, wer: err!, sub: sub!, del: del!, ins: ins! };
}

interface EngineRun {
  engine: string;
  model: string;
  score: Score;
  wall: number;
  cpu: number;
}

async function runEngine(
  dir: string,
  sclite: string[],
  label: { engine: string; model: string },
  engine: SpeechEngine,
  utterances: Utterance[],
  audioSeconds: number,
): Promise<EngineRun> {
  const storage = new LocalDiskStorage(join(dir, 'objects'));
  const deps = {
    storage,
    engine,
    ffmpeg: { ffmpeg: process.env.FFMPEG_PATH ?? 'ffmpeg', ffprobe: process.env.FFPROBE_PATH ?? 'ffprobe' },
    decoders: new Limiter(1),
  };
  let hypotheses = '';
  let wall = 0;
  let cpu = 0;
  for (const [index, utterance] of utterances.entries()) {
    const key = `wer/${label.engine}/${index}`;
    await storage.put(key, createReadStream(utterance.wav), { contentType: 'audio/wav' });
    const started = performance.now();
    const cpuStarted = cpuSeconds();
    const result = await transcribeStoredAudio(
      deps,
      key,
      new AbortController().signal,
      join(dir, 'work', `${label.engine}-${index}`),
      'en',
    );
    wall += (performance.now() - started) / 1000;
    cpu += cpuSeconds() - cpuStarted;
    const heard = words(result.segments.flatMap((s) => s.words.map((w) => w.text)).join(' '));
    hypotheses += trnLine(heard, utterance.id);
    console.log(`  ${label.engine} ${utterance.id}: ${heard.join(' ')}`);
  }
  const hyp = join(dir, `${label.engine}.trn`);
  writeFileSync(hyp, hypotheses);
  return {
    ...label,
    score: score(sclite, join(dir, 'ref.trn'), hyp),
    wall: wall / audioSeconds,
    cpu: cpu / audioSeconds,
  };
}

const sclite = findSclite();
if (!sclite) {
  console.error(
    `NIST sclite was not found (neither \`sclite\` on the PATH nor Debian's /usr/lib/sctk/bin/sclite): install it with \`${INSTALL}\``,
  );
  process.exit(1);
}
let utterances: Utterance[];
try {
  utterances = readTestData();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

const dir = mkdtempSync(join(tmpdir(), 'earshot-bench-wer-'));
const whisperHost = new WhisperHost({
  variant: 'cpu',
  threads: Number(process.env.WHISPER_THREADS ?? availableParallelism()),
  timeoutMs: 3_600_000,
});
try {
  const audioSeconds = utterances.reduce(
    (sum, u) =>
      sum +
      Number(
        execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', u.wav], {
          encoding: 'utf8',
        }),
      ),
    0,
  );
  writeFileSync(join(dir, 'ref.trn'), utterances.map((u) => trnLine(u.reference, u.id)).join(''));
  console.log(
    `${utterances.length} recordings (${audioSeconds.toFixed(1)} s, ${utterances.reduce((n, u) => n + u.reference.length, 0)} reference words) from ${DATA}; sclite: ${sclite.join(' ')}`,
  );
  const loadBefore = loadavg()[0]!;
  const runs: EngineRun[] = [];
  const pocketsphinx = new PocketSphinxEngine({
    binary: process.env.POCKETSPHINX_PATH ?? 'pocketsphinx_continuous',
    hmm: process.env.POCKETSPHINX_HMM,
    lm: process.env.POCKETSPHINX_LM,
    dict: process.env.POCKETSPHINX_DICT,
    chunkSeconds: Number(process.env.TRANSCRIPTION_CHUNK_SECONDS ?? 60),
  });
  runs.push(
    await runEngine(
      dir,
      sclite,
      { engine: 'pocketsphinx', model: 'en-us (Debian default)' },
      pocketsphinx,
      utterances,
      audioSeconds,
    ),
  );
  const own = process.env.BENCH_WHISPER_MODEL;
  if (own) {
    const model = { name: basename(own), path: own, languages: 'multilingual' as const, sizeBytes: statSync(own).size };
    const engine = new WhisperEngine(whisperHost, model);
    await engine.check();
    // Load the model before timing, as a worker keeps it loaded across jobs.
    await engine.transcribe(utterances[0]!.wav, undefined, 'en');
    runs.push(await runEngine(dir, sclite, { engine: 'whisper', model: model.name }, engine, utterances, audioSeconds));
  } else {
    console.log(
      "  whisper: skipped (set BENCH_WHISPER_MODEL=<path to a ggml .bin>; no real model can be downloaded on this build machine, so whisper figures come from an operator's machine)",
    );
  }
  console.log('\n| engine | model | utterances | words | WER % | sub / del / ins | RTF wall | RTF CPU |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const run of runs) {
    const s = run.score;
    console.log(
      `| ${run.engine} | ${run.model} | ${s.utterances} | ${s.words} | ${s.wer.toFixed(1)} | ${s.sub} / ${s.del} / ${s.ins} | ${run.wall.toFixed(2)} | ${run.cpu.toFixed(2)} |`,
    );
  }
  console.log(
    `\nmachine load (1-min average) before / after: ${loadBefore.toFixed(1)} / ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores (wall RTF is only meaningful on an idle machine)`,
  );
} finally {
  await whisperHost.close();
  rmSync(dir, { recursive: true, force: true });
}
