import { open } from 'node:fs/promises';
import type { PeaksDto } from '@earshot/contracts';
import type { WavInfo } from './wav';

/** About ten points a second, but never more than this: a 3-hour call stays ~200 KB of JSON. */
export const POINTS_PER_SECOND = 10;
export const MAX_PEAK_POINTS = 20_000;
const BLOCK_SAMPLES = 64 * 1024;

export interface WaveformAnalysis {
  peaks: PeaksDto;
  /**
   * Mean absolute difference between the channels relative to their mean level (0 = identical).
   * A "stereo" file whose channels are the same recording is treated as mono.
   */
  channelDifference: number;
}

const round = (value: number) => Math.round(value * 100) / 100;

/**
 * Reads the channel WAVs (16-bit mono, same length) once, block by block, and computes the
 * waveform peaks of their mix (min and max per point, -1..1) and how different the channels are.
 */
export async function analyseWaveform(channels: readonly WavInfo[]): Promise<WaveformAnalysis> {
  const first = channels[0]!;
  const totalSamples = Math.floor(Math.min(...channels.map((c) => c.dataBytes)) / 2);
  const duration = totalSamples / first.sampleRate;
  const points = Math.max(1, Math.min(MAX_PEAK_POINTS, Math.ceil(duration * POINTS_PER_SECOND)));
  const samplesPerPoint = Math.max(1, Math.ceil(totalSamples / points));
  const length = Math.ceil(totalSamples / samplesPerPoint) || 1;
  const mins = new Float64Array(length).fill(0);
  const maxs = new Float64Array(length).fill(0);
  let level = 0;
  let difference = 0;

  const handles = await Promise.all(channels.map((c) => open(c.path, 'r')));
  try {
    const buffers = channels.map(() => Buffer.alloc(BLOCK_SAMPLES * 2));
    // Little-endian 16-bit samples read straight through a typed view (WAV and x86/ARM agree).
    const views = buffers.map((b) => new Int16Array(b.buffer, b.byteOffset, BLOCK_SAMPLES));
    for (let sample = 0; sample < totalSamples; sample += BLOCK_SAMPLES) {
      const count = Math.min(BLOCK_SAMPLES, totalSamples - sample);
      await Promise.all(handles.map((h, i) => h.read(buffers[i]!, 0, count * 2, channels[i]!.dataOffset + sample * 2)));
      for (let j = 0; j < count; j++) {
        const point = Math.floor((sample + j) / samplesPerPoint);
        let low = Infinity;
        let high = -Infinity;
        for (const view of views) {
          const value = view[j]! / 32768;
          if (value < low) low = value;
          if (value > high) high = value;
          level += Math.abs(value);
        }
        if (views.length > 1) difference += high - low;
        if (low < mins[point]!) mins[point] = low;
        if (high > maxs[point]!) maxs[point] = high;
      }
    }
  } finally {
    await Promise.all(handles.map((h) => h.close()));
  }

  const data: number[] = new Array<number>(length * 2);
  for (let p = 0; p < length; p++) {
    data[p * 2] = round(mins[p]!);
    data[p * 2 + 1] = round(maxs[p]!);
  }
  const meanLevel = level / Math.max(1, totalSamples * channels.length);
  const meanDifference = difference / Math.max(1, totalSamples);
  return {
    peaks: {
      version: 1,
      duration: Math.round(duration * 1000) / 1000,
      pointsPerSecond: length / Math.max(duration, 1e-9),
      length,
      data,
    },
    channelDifference: channels.length > 1 && meanLevel > 0 ? meanDifference / meanLevel : 0,
  };
}
