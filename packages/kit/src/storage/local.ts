import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { lstat, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import { unrefInterval } from '../timers';
import { VersionedCache } from './versioned-cache';
import {
  assertValidKey,
  assertValidRange,
  ObjectNotFoundError,
  type ByteRange,
  type ObjectInfo,
  type ObjectStorage,
  type PutOptions,
} from './types';

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';
/** How many objects' content types a process remembers (each: a key, a version and a type). */
const CONTENT_TYPE_CACHE_SIZE = 10_000;
/**
 * The largest single read of a byte range: a player's range is sent whole anyway, so it is read
 * in one go rather than in 64 KiB pieces (one disk-thread round trip instead of several).
 */
const MAX_RANGE_READ = 1024 * 1024;
/**
 * How much a put may hold ahead of the disk. Pieces that arrive while a write is under way are
 * written together in one writev once it is done, so a stream of many small pieces (the sealed
 * chunks of an encrypted upload, 64 KiB each) costs a few disk-thread round trips, not one each.
 */
const WRITE_BUFFER = 1024 * 1024;

/**
 * A partial file not written to for this long is left over from a put that never finished (the
 * process died mid-upload; a put that fails on its own removes its file): a put in progress
 * writes to it as its bytes arrive, so its modification time stays recent.
 */
export const STALE_TEMP_MS = 60 * 60 * 1000;
/** How often a running service sweeps the temporary folder. */
export const TEMP_SWEEP_EVERY_MS = 60 * 60 * 1000;
/** The names put gives its partial files: nothing else in the folder is ever removed. */
const PARTIAL_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface TempSweepOptions {
  /** How long a partial file must have gone unwritten to be removed (STALE_TEMP_MS). */
  maxAgeMs?: number;
  /** The clock, in milliseconds since the epoch: tests backdate files against it rather than wait. */
  now?: () => number;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/**
 * Objects as files under `root` (`${DATA_DIR}/objects` in the all-in-one mode). A put writes a
 * temporary file in `root/.tmp` and renames it into place, so readers never see half an object;
 * the content type sits beside it in `root/.meta`. Keys cannot name either folder (no segment
 * may start with a dot). A put cut short by a crash leaves its partial file in `root/.tmp`:
 * startTempSweep removes those.
 */
export class LocalDiskStorage implements ObjectStorage {
  readonly kind = 'local' as const;
  private readonly root: string;
  /**
   * Content types by key with the version they belong to: a stat (an encrypted object's every
   * range read asks one) is then one system call instead of four for the side file. A rewritten
   * object is a new file (rename), so another version, and its old type is never used.
   */
  private readonly contentTypes = new VersionedCache<string>(CONTENT_TYPE_CACHE_SIZE);

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** Where put writes its partial files; every service's local storage shares it. */
  private get tmpDir(): string {
    return join(this.root, '.tmp');
  }

  /**
   * Removes the partial files of puts that never finished: regular files with put's names, in the
   * temporary folder only, not written to for `maxAgeMs`. A put in progress keeps its file fresh
   * and is left alone. Returns how many were removed.
   */
  async sweepTemp({ maxAgeMs = STALE_TEMP_MS, now = Date.now }: TempSweepOptions = {}): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.tmpDir);
    } catch (error) {
      if (isMissing(error)) return 0;
      throw error;
    }
    const before = now() - maxAgeMs;
    let removed = 0;
    for (const name of names.filter((entry) => PARTIAL_NAME.test(entry))) {
      const path = join(this.tmpDir, name);
      try {
        const info = await lstat(path);
        if (!info.isFile() || info.mtimeMs > before) continue;
        await rm(path);
        removed++;
      } catch (error) {
        // Renamed into place or removed by its put meanwhile: not a leftover after all.
        if (!isMissing(error)) throw error;
      }
    }
    return removed;
  }

  /** The absolute path of a key, refusing anything that would land outside the root. */
  private pathOf(key: string, area: '' | '.meta' = ''): string {
    assertValidKey(key);
    const base = area ? join(this.root, area) : this.root;
    const path = resolve(base, key);
    if (!path.startsWith(base + sep)) throw new ObjectNotFoundError(key);
    return path;
  }

  async put(key: string, stream: Readable, options: PutOptions): Promise<{ size: number }> {
    const target = this.pathOf(key);
    const metaPath = this.pathOf(key, '.meta');
    await mkdir(this.tmpDir, { recursive: true });
    const tmp = join(this.tmpDir, randomUUID());
    const out = createWriteStream(tmp, { flags: 'wx', highWaterMark: WRITE_BUFFER });
    try {
      await pipeline(stream, out);
      await mkdir(dirname(target), { recursive: true });
      await mkdir(dirname(metaPath), { recursive: true });
      await writeFile(metaPath, JSON.stringify({ contentType: options.contentType }));
      await rename(tmp, target);
      return { size: out.bytesWritten };
    } catch (error) {
      stream.destroy();
      await rm(tmp, { force: true });
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertValidRange(range);
    const path = this.pathOf(key);
    try {
      // Opening first turns a missing key into an error here rather than on the stream.
      const handle = await open(path, 'r');
      return handle.createReadStream(
        range
          ? { start: range.start, end: range.end, highWaterMark: Math.min(range.end - range.start + 1, MAX_RANGE_READ) }
          : {},
      );
    } catch (error) {
      if (isMissing(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    const path = this.pathOf(key);
    try {
      const info = await stat(path);
      if (!info.isFile()) return null;
      const version = `${info.ino}:${info.mtimeMs}:${info.size}`;
      return { size: info.size, contentType: await this.contentTypeOf(key, version), version };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    this.contentTypes.delete(key);
    await rm(this.pathOf(key), { force: true });
    await rm(this.pathOf(key, '.meta'), { force: true });
  }

  private async contentTypeOf(key: string, version: string): Promise<string> {
    const known = this.contentTypes.get(key, version);
    if (known !== undefined) return known;
    let contentType = DEFAULT_CONTENT_TYPE;
    try {
      const meta = JSON.parse(await readFile(this.pathOf(key, '.meta'), 'utf8')) as { contentType?: unknown };
      if (typeof meta.contentType === 'string') contentType = meta.contentType;
    } catch {
      // No side file (written by hand, or an older layout): the default type.
    }
    this.contentTypes.set(key, version, contentType);
    return contentType;
  }
}

/**
 * Sweeps the storage's temporary folder now (awaited: a start after a crash begins clean) and then
 * every TEMP_SWEEP_EVERY_MS, logging how many partial files went (a count: their names are
 * random, and the keys they were meant for are not known). Clear the returned timer on stop.
 */
export async function startTempSweep(
  storage: LocalDiskStorage,
  logger: Logger,
  options: TempSweepOptions & { everyMs?: number } = {},
): Promise<NodeJS.Timeout> {
  const sweep = () =>
    storage.sweepTemp(options).then(
      (removed) => {
        if (removed > 0) logger.info({ removed }, 'partial uploads left by an interrupted put removed from storage');
      },
      (error: unknown) => logger.error({ err: error }, 'storage temporary folder sweep failed'),
    );
  await sweep();
  return unrefInterval(() => void sweep(), options.everyMs ?? TEMP_SWEEP_EVERY_MS);
}
