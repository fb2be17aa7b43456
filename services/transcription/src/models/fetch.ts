import { createReadStream } from 'node:fs';
import type { Hash } from 'node:crypto';

/** A download that cannot go on; `removePart` when the bytes so far are worthless (wrong file). */
export class DownloadFailure extends Error {
  constructor(
    message: string,
    readonly removePart = false,
  ) {
    super(message);
    this.name = 'DownloadFailure';
  }
}

const MAX_REDIRECTS = 10;

/**
 * GET with redirects followed by hand: model hosts redirect to a CDN (Hugging Face, GitHub
 * releases), and each hop must stay on http(s) — never file:, data: or anything else.
 */
export async function fetchFollowing(
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal,
  mirror = 'SPEECH_MODELS_URL',
): Promise<Response> {
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const response = await reach(current, { headers, signal, redirect: 'manual' }, mirror);
    if (response.status < 300 || response.status >= 400 || response.status === 304) return response;
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (!location) throw new DownloadFailure(`${current} answered ${response.status} without saying where to go`);
    const next = new URL(location, current);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw new DownloadFailure(
        `${current} redirected to a ${next.protocol} address, which is refused: only http and https are followed`,
      );
    }
    current = next.href;
  }
  throw new DownloadFailure(`${url} redirected more than ${MAX_REDIRECTS} times`);
}

/**
 * fetch, with an unreachable host said in words an offline operator can act on: undici's own
 * "fetch failed" names neither the address nor the mirror setting that avoids it.
 */
async function reach(url: string, init: RequestInit, mirror: string): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    // undici's errors may come from another realm (a test's VM), so no instanceof here.
    if (init.signal?.aborted || typeof error !== 'object' || error === null) throw error;
    const { message, cause } = error as { message?: unknown; cause?: { code?: unknown } };
    const code = typeof cause?.code === 'string' ? `: ${cause.code}` : '';
    throw new DownloadFailure(
      `Could not download from ${url} (${String(message)}${code}). Offline? Set ${mirror} to a mirror.`,
    );
  }
}

/** `Content-Range: bytes 100-199/2000` → {start: 100, total: 2000} (total null when `*`). */
export function parseContentRange(header: string | null): { start: number; total: number | null } | null {
  const match = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(header?.trim() ?? '');
  if (!match) return null;
  return { start: Number(match[1]), total: match[2] === '*' ? null : Number(match[2]) };
}

/** Feeds the bytes already on disk into the hash (a resumed download hashes the whole file). */
export async function hashFile(path: string, hash: Hash): Promise<number> {
  let bytes = 0;
  try {
    for await (const chunk of createReadStream(path)) {
      hash.update(chunk as Buffer);
      bytes += (chunk as Buffer).length;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return bytes;
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** 1536000000 → "1.5 GB" (decimal units, as disks are sold). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${UNITS[unit]}`;
}
