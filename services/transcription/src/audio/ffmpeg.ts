import { join } from 'node:path';
import { JobError } from '../services/job-error';
import { run, tail } from './run';
import { readWavInfo, type WavInfo } from './wav';

export interface FfmpegPaths {
  ffmpeg: string;
  ffprobe: string;
  /** Longest an ffprobe may read a file (default PROBE_TIMEOUT_MS). */
  probeTimeoutMs?: number;
  /** Longest a decode may run (default DECODE_TIMEOUT_MS). */
  decodeTimeoutMs?: number;
  /** Longest recording decoded (default MAX_AUDIO_SECONDS): a longer one fails. */
  maxSeconds?: number;
}

export const FFMPEG_MISSING = 'ffmpeg is not installed on this server';
export const SAMPLE_RATE = 16_000;
/** Reading a container's headers takes milliseconds; a file that keeps ffprobe busy longer is refused. */
export const PROBE_TIMEOUT_MS = 30_000;

/**
 * Decoding runs many times faster than real time; a decode still running after this long is a file
 * built to keep ffmpeg busy (or a stuck program), not a recording.
 */
export const DECODE_TIMEOUT_MS = 15 * 60_000;
/**
 * Eight hours: longer than any meeting people record, and it bounds the decoded WAV on disk (16 kHz
 * 16-bit mono: about 0.9 GB) whatever a small compressed file claims to hold.
 */
export const MAX_AUDIO_SECONDS = 8 * 3600;

/** A limit as people read it: '45 s', '15 min', '8 h'. */
const span = (seconds: number) =>
  seconds < 60
    ? `${Math.round(seconds)} s`
    : seconds < 3600
      ? `${Math.round(seconds / 60)} min`
      : `${+(seconds / 3600).toFixed(1)} h`;

/** The reason a probe stopped at its limit gives (the job fails, not retried: the file stays as slow). */
export const probeTimedOut = (paths: FfmpegPaths) =>
  new JobError(
    `The file could not be read as audio within ${Math.round((paths.probeTimeoutMs ?? PROBE_TIMEOUT_MS) / 1000)} s`,
    false,
  );

interface ProbeOutput {
  streams?: { codec_type?: string; channels?: number; codec_name?: string }[];
  format?: { duration?: string };
}

/** The first audio stream's channel count (duration comes from the decoded WAV, which is exact). */
export async function probe(
  paths: FfmpegPaths,
  input: string,
  signal?: AbortSignal,
): Promise<{ channels: number; codec: string }> {
  const result = await run(
    paths.ffprobe,
    ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', input],
    FFMPEG_MISSING,
    { signal, timeoutMs: paths.probeTimeoutMs ?? PROBE_TIMEOUT_MS },
  );
  if (result.timedOut) throw probeTimedOut(paths);
  if (result.code !== 0)
    throw new JobError(`The file could not be read as audio (${tail(result.stderr) || 'ffprobe failed'})`, false);
  const parsed = JSON.parse(result.stdout || '{}') as ProbeOutput;
  const stream = parsed.streams?.find((s) => s.codec_type === 'audio');
  if (!stream) throw new JobError('The file has no audio stream', false);
  return { channels: stream.channels ?? 1, codec: stream.codec_name ?? 'unknown' };
}

/** The reason a recording over the length limit gives (it fails, not retried). */
export const tooLong = (paths: FfmpegPaths) =>
  new JobError(`The recording is longer than the ${span(paths.maxSeconds ?? MAX_AUDIO_SECONDS)} limit`, false);

/**
 * Decodes the upload into 16 kHz mono 16-bit WAV: one file per channel for a two-channel call
 * recording (agent and customer on their own channels), one down-mixed file otherwise. Within
 * limits: a decode past its time, or a recording past the length limit, fails the job.
 */
export async function toChannelWavs(
  paths: FfmpegPaths,
  input: string,
  outDir: string,
  channels: number,
  signal?: AbortSignal,
): Promise<WavInfo[]> {
  const perChannel = channels === 2;
  const maxSeconds = paths.maxSeconds ?? MAX_AUDIO_SECONDS;
  const outputs = perChannel
    ? [join(outDir, 'channel-0.wav'), join(outDir, 'channel-1.wav')]
    : [join(outDir, 'mono.wav')];
  const args = ['-nostdin', '-hide_banner', '-v', 'error', '-y', '-i', input];
  outputs.forEach((out, index) => {
    args.push('-map', '0:a:0', '-vn', '-sn', '-dn');
    args.push(...(perChannel ? ['-af', `pan=mono|c0=c${index}`] : ['-ac', '1']));
    // One second past the limit: enough to tell a recording that is too long from one that is not.
    args.push(
      '-t',
      String(maxSeconds + 1),
      '-ar',
      String(SAMPLE_RATE),
      '-c:a',
      'pcm_s16le',
      '-map_metadata',
      '-1',
      '-fflags',
      '+bitexact',
      '-f',
      'wav',
      out,
    );
  });
  const timeoutMs = paths.decodeTimeoutMs ?? DECODE_TIMEOUT_MS;
  const result = await run(paths.ffmpeg, args, FFMPEG_MISSING, { signal, timeoutMs });
  if (result.timedOut) throw new JobError(`The audio could not be decoded within ${span(timeoutMs / 1000)}`, false);
  if (result.code !== 0)
    throw new JobError(`The audio could not be decoded (${tail(result.stderr) || 'ffmpeg failed'})`, false);
  const wavs = await Promise.all(outputs.map(readWavInfo));
  if (wavs.some((wav) => wav.duration > maxSeconds)) throw tooLong(paths);
  return wavs;
}

export interface Silence {
  start: number;
  end: number;
}

const SILENCE_START = /silence_start: (-?[\d.]+)/;
const SILENCE_END = /silence_end: (-?[\d.]+)/;

/** Stretches of quiet (ffmpeg silencedetect) where long audio can be cut without splitting words. */
export async function detectSilences(
  paths: FfmpegPaths,
  wav: string,
  duration: number,
  signal?: AbortSignal,
  noiseDb = -35,
  minSeconds = 0.3,
): Promise<Silence[]> {
  const silences: Silence[] = [];
  let open: number | null = null;
  const result = await run(
    paths.ffmpeg,
    [
      '-nostdin',
      '-hide_banner',
      '-nostats',
      '-i',
      wav,
      '-af',
      `silencedetect=noise=${noiseDb}dB:d=${minSeconds}`,
      '-f',
      'null',
      '-',
    ],
    FFMPEG_MISSING,
    {
      signal,
      onStderrLine: (line) => {
        const start = SILENCE_START.exec(line);
        if (start) open = Math.max(0, Number(start[1]));
        const end = SILENCE_END.exec(line);
        if (end && open !== null) {
          silences.push({ start: open, end: Number(end[1]) });
          open = null;
        }
      },
    },
  );
  if (result.code !== 0)
    throw new JobError(`Silence detection failed (${tail(result.stderr) || 'ffmpeg failed'})`, false);
  if (open !== null) silences.push({ start: open, end: duration });
  return silences;
}
