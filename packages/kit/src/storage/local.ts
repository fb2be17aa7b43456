import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/**
 * Objects as files under `root` (`${DATA_DIR}/objects` in the all-in-one mode). A put writes a
 * temporary file in `root/.tmp` and renames it into place, so readers never see half an object;
 * the content type sits beside it in `root/.meta`. Keys cannot name either folder (no segment
 * may start with a dot).
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
    const tmpDir = join(this.root, '.tmp');
    await mkdir(tmpDir, { recursive: true });
    const tmp = join(tmpDir, randomUUID());
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
