import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { PeaksDto } from '@earshot/contracts';
import type { ObjectStorage } from '@earshot/kit';
import { FFMPEG_MISSING, PROBE_TIMEOUT_MS, probeTimedOut, toChannelWavs, type FfmpegPaths } from '../audio/ffmpeg';
import { analyseWaveform } from '../audio/peaks';
import { run, tail } from '../audio/run';
import { JobError } from '../services/job-error';
import type { RedactedSpan } from './index';

/** Silence starts this much before a span and ends this much after: word times are estimates. */
export const AUDIO_MARGIN_SECONDS = 0.25;

/** ffprobe's container names → the muxer that writes the same container. */
const MUXER: Readonly<Record<string, string>> = { 'mov,mp4,m4a,3gp,3g2,mj2': 'mp4', 'matroska,webm': 'webm' };

async function containerOf(
  ffmpeg: FfmpegPaths,
  input: string,
  signal?: AbortSignal,
): Promise<{ format: string; codec: string; channels: number }> {
  const result = await run(
    ffmpeg.ffprobe,
    ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', input],
    FFMPEG_MISSING,
    { signal, timeoutMs: ffmpeg.probeTimeoutMs ?? PROBE_TIMEOUT_MS },
  );
  if (result.timedOut) throw probeTimedOut(ffmpeg);
  const parsed = JSON.parse(result.stdout || '{}') as {
    streams?: { codec_type?: string; codec_name?: string; channels?: number }[];
    format?: { format_name?: string };
  };
  const stream = parsed.streams?.find((s) => s.codec_type === 'audio');
  const name = parsed.format?.format_name;
  if (result.code !== 0 || !stream || !name)
    throw new JobError(`The audio could not be read for redaction (${tail(result.stderr) || 'ffprobe failed'})`, false);
  return { format: MUXER[name] ?? name.split(',')[0]!, codec: stream.codec_name ?? '', channels: stream.channels ?? 1 };
}

/** ffmpeg's volume filter at 0 over every span (with its margin), on all channels. */
export function silenceFilter(spans: readonly RedactedSpan[]): string {
  const ranges = spans.map(
    (s) =>
      `between(t,${Math.max(0, s.start - AUDIO_MARGIN_SECONDS).toFixed(3)},${(s.end + AUDIO_MARGIN_SECONDS).toFixed(3)})`,
  );
  return `volume=volume=0:enable='${ranges.join('+')}'`;
}

/**
 * Replaces the spans of the stored recording with silence (ffmpeg), in the same container and
 * codec (PCM and FLAC sample for sample, lossy codecs re-encoded), writes it back under the same
 * key, and draws the peaks again from what is stored now. Returns the new peaks and size: the file
 * service learns the size from transcript.audio_redacted.
 */
export async function silenceStoredAudio(
  deps: { storage: ObjectStorage; ffmpeg: FfmpegPaths },
  storageKey: string,
  contentType: string,
  spans: readonly RedactedSpan[],
  dir: string,
  signal?: AbortSignal,
): Promise<{ peaks: PeaksDto; size: number }> {
  await mkdir(dir, { recursive: true });
  try {
    const input = join(dir, 'original');
    await pipeline(await deps.storage.get(storageKey), createWriteStream(input), { signal });
    const { format, codec, channels } = await containerOf(deps.ffmpeg, input, signal);
    const output = join(dir, 'redacted');
    const sameCodec = codec.startsWith('pcm_') || codec === 'flac' ? ['-c:a', codec] : [];
    const result = await run(
      deps.ffmpeg.ffmpeg,
      [
        '-nostdin',
        '-hide_banner',
        '-v',
        'error',
        '-y',
        '-i',
        input,
        '-map',
        '0:a:0',
        '-vn',
        '-sn',
        '-dn',
        '-af',
        silenceFilter(spans),
        ...sameCodec,
        '-map_metadata',
        '-1',
        '-fflags',
        '+bitexact',
        '-f',
        format,
        output,
      ],
      FFMPEG_MISSING,
      { signal },
    );
    await rm(input, { force: true });
    if (result.code !== 0)
      throw new JobError(`The audio could not be redacted (${tail(result.stderr) || 'ffmpeg failed'})`, true);
    const { size } = await stat(output);
    await deps.storage.put(storageKey, createReadStream(output), { contentType, size });
    const wavs = await toChannelWavs(deps.ffmpeg, output, dir, channels, signal);
    const { peaks } = await analyseWaveform(wavs);
    return { peaks, size };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
