import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertValidKey, assertValidRange, ObjectNotFoundError, type ByteRange, type ObjectInfo, type ObjectStorage, type PutOptions } from './types';

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

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
    const out = createWriteStream(tmp, { flags: 'wx' });
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
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
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
      return { size: info.size, contentType: await this.contentTypeOf(key), version: `${info.ino}:${info.mtimeMs}:${info.size}` };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
    await rm(this.pathOf(key, '.meta'), { force: true });
  }

  private async contentTypeOf(key: string): Promise<string> {
    try {
      const meta = JSON.parse(await readFile(this.pathOf(key, '.meta'), 'utf8')) as { contentType?: unknown };
      return typeof meta.contentType === 'string' ? meta.contentType : DEFAULT_CONTENT_TYPE;
    } catch {
      return DEFAULT_CONTENT_TYPE;
    }
  }
}
