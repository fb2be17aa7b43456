import type { Silence } from './ffmpeg';

export interface Chunk {
  start: number;
  end: number;
}

/**
 * Splits [0, duration] into pieces of at most `maxSeconds`, each cut in the middle of a silence
 * (the latest one in the second half of the window, so pieces stay long), or hard at the limit
 * when a window has no silence at all. Pieces that are silence from end to end are left out.
 */
export function planChunks(duration: number, silences: readonly Silence[], maxSeconds: number): Chunk[] {
  const chunks: Chunk[] = [];
  let cursor = 0;
  while (duration - cursor > maxSeconds) {
    const limit = cursor + maxSeconds;
    const candidates = silences
      .map((s) => (s.start + s.end) / 2)
      .filter((middle) => middle > cursor + maxSeconds / 2 && middle <= limit);
    const cut = candidates.length ? Math.max(...candidates) : limit;
    chunks.push({ start: cursor, end: cut });
    cursor = cut;
  }
  if (duration - cursor > 0.05) chunks.push({ start: cursor, end: duration });
  return chunks.filter((chunk) => !silences.some((s) => s.start <= chunk.start + 0.01 && s.end >= chunk.end - 0.01));
}
