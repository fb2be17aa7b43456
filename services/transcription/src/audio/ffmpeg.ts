import { join } from 'node:path';
import { JobError } from '../services/job-error';
import { run, tail } from './run';

export interface FfmpegPaths {
  ffmpeg: string;
  ffprobe: string;
  /** Longest an ffprobe may read a file (default PROBE_TIMEOUT_MS). */
  probeTimeoutMs?: number;
}

export const FFMPEG_MISSING = 'ffmpeg is not installed on this server';
export const SAMPLE_RATE = 16_000;
/** Reading a container's headers takes milliseconds; a file that keeps ffprobe busy longer is refused. */
export const PROBE_TIMEOUT_MS = 30_000;

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

/**
 * Decodes the upload into 16 kHz mono 16-bit WAV: one file per channel for a two-channel call
 * recording (agent and customer on their own channels), one down-mixed file otherwise.
 */
export async function toChannelWavs(
  paths: FfmpegPaths,
  input: string,
  outDir: string,
  channels: number,
  signal?: AbortSignal,
): Promise<string[]> {
  const perChannel = channels === 2;
  const outputs = perChannel
    ? [join(outDir, 'channel-0.wav'), join(outDir, 'channel-1.wav')]
    : [join(outDir, 'mono.wav')];
  const args = ['-nostdin', '-hide_banner', '-v', 'error', '-y', '-i', input];
  outputs.forEach((out, index) => {
    args.push('-map', '0:a:0', '-vn', '-sn', '-dn');
    args.push(...(perChannel ? ['-af', `pan=mono|c0=c${index}`] : ['-ac', '1']));
    args.push(
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
  const result = await run(paths.ffmpeg, args, FFMPEG_MISSING, { signal });
  if (result.code !== 0)
    throw new JobError(`The audio could not be decoded (${tail(result.stderr) || 'ffmpeg failed'})`, false);
  return outputs;
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
