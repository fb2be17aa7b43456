import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { SpeakerInfo } from '@earshot/contracts';
import { ObjectNotFoundError, withSpan, type ObjectStorage } from '@earshot/kit';
import { detectSilences, probe, toChannelWavs, type FfmpegPaths } from '../audio/ffmpeg';
import { planChunks } from '../audio/chunks';
import { analyseWaveform } from '../audio/peaks';
import { writeWavSlice, type WavInfo } from '../audio/wav';
import type { RecognisedWord, SpeechEngine } from '../engines/types';
import { speakerOfEach, wordsBySpeaker, type SpeakerSpan } from '../diarization/assign';
import type { Turn } from '../diarization/host';
import type { TranscriptResult } from '../repositories/transcripts';
import { JobError } from './job-error';
import type { Limiter } from './limiter';
import { buildSegments, diarizedSpeakers, speakersFor, type ChannelWords } from './segments';

export interface PipelineDeps {
  storage: ObjectStorage;
  engine: SpeechEngine;
  ffmpeg: FfmpegPaths;
  /** Shared by every job of a worker: at most TRANSCRIPTION_CONCURRENCY decoders run at once. */
  decoders: Limiter;
  /**
   * Speaker turns of a one-channel 16 kHz WAV, `speakers` of them (null: found automatically);
   * null when the diarization models are not ready. Throws why it could not diarize.
   */
  diarize?: (wavPath: string, speakers: number | null, signal: AbortSignal) => Promise<Turn[] | null>;
}

/** What the upload said about its speakers, and where to say why they could not be told apart. */
export interface SpeakerRequest {
  /** How many speakers the uploader said there are (null: unknown). */
  expected?: number | null;
  warn?: (message: string) => void;
}

/** Channels whose mean difference is under this share of their level are one recording twice. */
const SAME_RECORDING = 0.05;

async function download(storage: ObjectStorage, key: string, target: string, signal: AbortSignal): Promise<void> {
  try {
    await pipeline(await storage.get(key), createWriteStream(target), { signal });
  } catch (error) {
    if (error instanceof ObjectNotFoundError) throw new JobError('The audio file is missing from storage', false);
    throw error;
  }
}

/**
 * Runs tasks in parallel; the first failure stops the others (their signal aborts) and, once all
 * have settled, is thrown. Nothing is left running when this returns or throws.
 */
async function allOrNothing<T>(tasks: ((signal: AbortSignal) => Promise<T>)[], signal: AbortSignal): Promise<T[]> {
  const stop = new AbortController();
  const inner = AbortSignal.any([signal, stop.signal]);
  const results = await Promise.allSettled(
    tasks.map((task) =>
      task(inner).catch((error: unknown) => {
        stop.abort();
        throw error;
      }),
    ),
  );
  const failures = results
    .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    .map((r) => r.reason as unknown);
  // The first real failure, not the aborts it caused in the other tasks.
  const failure = failures.find((e) => !(e instanceof Error && e.name === 'AbortError')) ?? failures[0];
  if (failures.length) throw failure;
  return results.map((r) => (r as PromiseFulfilledResult<T>).value);
}

/** Seconds of audio in which each language was heard. */
type Heard = Map<string, number>;

/** Decodes one channel: cut at silences into pieces the engine accepts, decoded in parallel, offsets corrected. */
async function recogniseChannel(
  deps: PipelineDeps,
  wav: WavInfo,
  dir: string,
  label: string,
  language: string,
  heard: Heard,
  signal: AbortSignal,
): Promise<RecognisedWord[]> {
  const maxSeconds = deps.engine.maxChunkSeconds();
  const silences = wav.duration > maxSeconds ? await detectSilences(deps.ffmpeg, wav.path, wav.duration, signal) : [];
  const chunks = planChunks(wav.duration, silences, maxSeconds);
  const pieces = await allOrNothing(
    chunks.map(
      (chunk, index) => (inner) =>
        deps.decoders.run(async () => {
          inner.throwIfAborted();
          const whole = chunks.length === 1 && chunk.start === 0;
          const path = whole ? wav.path : join(dir, `${label}-${index}.wav`);
          if (!whole) await writeWavSlice(wav, chunk.start, chunk.end, path);
          const { words, language: said } = await withSpan(
            'transcription engine',
            {
              attributes: {
                'earshot.engine': deps.engine.name,
                'earshot.audio.seconds': chunk.end - chunk.start,
                'earshot.audio.channel': label,
              },
            },
            () => deps.engine.transcribe(path, inner, language),
          );
          if (!whole) await rm(path, { force: true });
          if (said) heard.set(said, (heard.get(said) ?? 0) + chunk.end - chunk.start);
          return words.map((w) => ({ ...w, start: w.start + chunk.start, end: w.end + chunk.start }));
        }),
    ),
    signal,
  );
  return pieces.flat();
}

/**
 * The speakers of a one-channel recording and their words: the provider's labels when its words
 * carry them (unlabelled words go to the labelled speaker by time), else the diarizer's turns,
 * else one speaker. A diarizer that fails leaves one speaker and a warning, never a failed job.
 */
async function oneChannelSpeakers(
  deps: PipelineDeps,
  wav: WavInfo,
  words: RecognisedWord[],
  request: SpeakerRequest,
  signal: AbortSignal,
): Promise<{ speakers: SpeakerInfo[]; channels: ChannelWords[] }> {
  const labelled: SpeakerSpan<string>[] = words
    .filter((w) => w.speaker)
    .map((w) => ({ start: w.start, end: w.end, speaker: w.speaker! }));
  let groups: { speaker: string | number; words: RecognisedWord[] }[] = [];
  let named = false;
  if (labelled.length) {
    const guessed = speakerOfEach(words, labelled);
    groups = wordsBySpeaker(
      words,
      words.map((w, i) => w.speaker ?? guessed[i]!),
    );
    named = true;
  } else if (words.length && request.expected !== 1 && deps.diarize) {
    try {
      const turns = await deps.diarize(wav.path, request.expected ?? null, signal);
      if (turns?.length) groups = wordsBySpeaker(words, speakerOfEach(words, turns));
    } catch (error) {
      if (signal.aborted) throw error;
      request.warn?.(`Speaker diarization failed, so the recording keeps one speaker: ${(error as Error).message}`);
    }
  }
  if (groups.length === 0 || (!named && groups.length === 1))
    return { speakers: speakersFor(1), channels: [{ speakerId: 'speaker_0', words }] };
  const speakers = diarizedSpeakers(groups.map((g) => (named ? String(g.speaker) : null)));
  return { speakers, channels: groups.map((g, i) => ({ speakerId: speakers[i]!.id, words: g.words })) };
}

/**
 * From a stored upload to a transcript: fetch, decode to 16 kHz mono WAV per channel, measure,
 * draw peaks, recognise, and build speaker segments. Everything temporary goes in `dir` (created
 * here, removed at the end; what a crash leaves there the next worker start removes). `requested`
 * is the language to recognise (`auto`: the engine detects it, piece by piece; the transcript
 * takes the one heard in most of the audio); an engine that cannot recognise it fails the job at once.
 */
export async function transcribeStoredAudio(
  deps: PipelineDeps,
  storageKey: string,
  signal: AbortSignal,
  dir: string,
  requested = 'auto',
  speakerRequest: SpeakerRequest = {},
): Promise<TranscriptResult> {
  await mkdir(dir, { recursive: true });
  try {
    const input = join(dir, 'input');
    await download(deps.storage, storageKey, input, signal);
    const { channels } = await probe(deps.ffmpeg, input, signal);
    await deps.engine.check(signal);
    const language = deps.engine.recognitionLanguage(requested);
    const wavs = await toChannelWavs(deps.ffmpeg, input, dir, channels, signal);
    await rm(input, { force: true });
    const { peaks, channelDifference } = await analyseWaveform(wavs);
    const duration = peaks.duration;
    // A "stereo" file that carries the same recording on both channels is one speaker, not two.
    const speakerWavs = wavs.length === 2 && channelDifference < SAME_RECORDING ? wavs.slice(0, 1) : wavs;
    const heard: Heard = new Map();
    const words = await allOrNothing(
      speakerWavs.map((wav, index) => (inner) => recogniseChannel(deps, wav, dir, `c${index}`, language, heard, inner)),
      signal,
    );
    const mono = speakerWavs.length === 1;
    const channelSpeakers = speakersFor(speakerWavs.length);
    // Stereo: one speaker per channel, as recorded; one channel: told apart by voice when possible.
    const { speakers, channels: spoken } = mono
      ? await oneChannelSpeakers(deps, speakerWavs[0]!, words[0]!, speakerRequest, signal)
      : {
          speakers: channelSpeakers,
          channels: words.map((w, index) => ({ speakerId: channelSpeakers[index]!.id, words: w })),
        };
    const run = randomBytes(4).toString('hex');
    const segments = buildSegments(spoken, duration, run, mono && speakers.length > 1);
    const detected = [...heard].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
    return {
      engine: deps.engine.name,
      duration,
      speakers,
      segments,
      peaks,
      language: language === 'auto' ? detected : language,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
