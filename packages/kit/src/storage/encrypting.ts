import { pipeline, Readable } from 'node:stream';
import {
  decryptingStream,
  encryptingStream,
  HEADER_BYTES,
  isEncryptedHeader,
  plainSizeOf,
  readHeader,
  storedRangeOf,
  TAG_BYTES,
} from '../crypto/chunked';
import { KeyUnavailableError } from '../crypto/master-key';
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

/** What the wrapper asks of a service's key ring, per company (the first segment of every key). */
export interface CompanyKeys {
  /** Whether new objects of the company are stored encrypted. */
  encrypts(companyId: string): Promise<boolean>;
  /** The company's data key, or null when it has none (never on, or destroyed). */
  dataKey(companyId: string): Promise<Buffer | null>;
  /**
   * Whether any object of the company may be stored encrypted (it has or had a data key). When
   * false, reads skip the stat and header read that tell an encrypted object from a plain one
   * (on S3, two requests per read). Without it every read looks.
   */
  mayHaveEncrypted?(companyId: string): Promise<boolean>;
}

/** An encrypted object's header and stored size, as read of one version of it. */
interface KnownHeader {
  header: Buffer;
  storedSize: number;
}

/** How many encrypted objects' headers a process remembers (HEADER_BYTES each). */
const HEADER_CACHE_SIZE = 10_000;

/**
 * The first `n` bytes of a stream (fewer if it is shorter) and the stream to read all of it from:
 * the same one with the bytes put back, or, when they were all it had, a new one of them.
 */
async function peek(stream: Readable, n: number): Promise<{ head: Buffer; stream: Readable }> {
  const parts: Buffer[] = [];
  let length = 0;
  while (length < n) {
    const chunk = stream.read() as Buffer | null;
    if (chunk) {
      parts.push(chunk);
      length += chunk.length;
      continue;
    }
    if (stream.readableEnded || stream.destroyed) break;
    await new Promise<void>((resolve, reject) => {
      const done = () => {
        stream.off('readable', done).off('end', done).off('error', failed);
        resolve();
      };
      const failed = (error: Error) => {
        stream.off('readable', done).off('end', done);
        reject(error);
      };
      stream.once('readable', done).once('end', done).once('error', failed);
    });
  }
  const all = Buffer.concat(parts, length);
  if (stream.readableEnded) return { head: all, stream: Readable.from([all]) };
  if (length > 0) stream.unshift(all);
  return { head: all.subarray(0, n), stream };
}

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

type DecryptOptions = Parameters<typeof decryptingStream>[2];

/**
 * Which stored bytes to read for a plain range (or all) of an encrypted object of `storedSize`
 * bytes, and how to decrypt them (an empty object: its one empty chunk, with no byte to give). A
 * range that starts past the end is a RangeError.
 */
function planRead(
  header: Buffer,
  storedSize: number,
  range: ByteRange | undefined,
): { stored: ByteRange; opts: DecryptOptions } {
  const { chunkSize } = readHeader(header);
  const plainSize = plainSizeOf(storedSize, chunkSize);
  const finalChunk = Math.max(0, Math.ceil(plainSize / chunkSize) - 1);
  const wanted = range
    ? { start: range.start, end: Math.min(range.end, plainSize - 1) }
    : { start: 0, end: plainSize - 1 };
  if (plainSize === 0 || wanted.end < wanted.start) {
    if (range) throw new RangeError(`Invalid byte range ${range.start}-${range.end} of ${plainSize} bytes`);
    return {
      stored: { start: HEADER_BYTES, end: storedSize - 1 },
      opts: { firstChunk: 0, finalChunk, skip: 0, length: 0 },
    };
  }
  const { stored, firstChunk, skip } = storedRangeOf(wanted, chunkSize, storedSize);
  return { stored, opts: { firstChunk, finalChunk, skip, length: wanted.end - wanted.start + 1 } };
}

/**
 * Object storage that encrypts the objects of companies with encryption on (the chunked AES-GCM
 * format of crypto/chunked.ts) and decrypts on read, whole or by byte range, reading only the
 * chunks a range covers. Objects stored in plain (before encryption was on) are read as they are;
 * an encrypted object whose company has no key any more fails with KeyUnavailableError. Keys must
 * start with the company id (`<companyId>/...`), as every service's keys do. A company that never
 * had a key (CompanyKeys.mayHaveEncrypted) is read straight through, one request per read.
 */
export class EncryptingStorage implements ObjectStorage {
  readonly kind: 'local' | 's3';
  /**
   * Encrypted objects' headers by key, with the version they were read from: a playback asks for
   * many ranges of one recording, and each would otherwise read the header again (on S3, one more
   * request per range). A rewritten object has another version, so its old header is never used.
   */
  private readonly headers = new VersionedCache<KnownHeader>(HEADER_CACHE_SIZE);

  constructor(
    readonly inner: ObjectStorage,
    private readonly keys: CompanyKeys,
    private readonly chunkSize?: number,
  ) {
    this.kind = inner.kind;
  }

  private companyOf(key: string): string {
    assertValidKey(key);
    return key.split('/')[0]!;
  }

  async put(key: string, stream: Readable, options: PutOptions): Promise<{ size: number }> {
    const companyId = this.companyOf(key);
    this.headers.delete(key);
    if (!(await this.keys.encrypts(companyId))) return this.inner.put(key, stream, options);
    return this.putEncrypted(key, stream, options, companyId);
  }

  /** Stores `stream` encrypted whatever the switch says (the background pass of existing objects). */
  async putEncrypted(
    key: string,
    stream: Readable,
    options: PutOptions,
    companyId = this.companyOf(key),
  ): Promise<{ size: number }> {
    const dataKey = await this.keys.dataKey(companyId);
    if (!dataKey) throw new KeyUnavailableError(`Company ${companyId} has no data key`);
    this.headers.delete(key);
    const cipher = encryptingStream(dataKey, this.chunkSize);
    pipeline(stream, cipher, () => undefined);
    await this.inner.put(key, cipher, { contentType: options.contentType });
    return { size: cipher.plainBytes };
  }

  /** The header of an encrypted object, or null when the object is stored in plain. */
  private async headerOf(key: string, info: ObjectInfo): Promise<Buffer | null> {
    if (info.size < HEADER_BYTES + TAG_BYTES) return null;
    const known = this.headers.get(key, info.version);
    if (known) return known.header;
    const head = await readAll(await this.inner.get(key, { start: 0, end: HEADER_BYTES - 1 }));
    if (!isEncryptedHeader(head)) return null;
    this.headers.set(key, info.version, { header: head, storedSize: info.size });
    return head;
  }

  /**
   * Rewrites a plain object encrypted under its company's key, in place (the background pass after
   * a company turned encryption on). 'missing': no such object; 'already': it is encrypted, told
   * from the bytes read rather than from an earlier look, so an object that was written again
   * encrypted meanwhile (a new upload, audio redaction) is never sealed twice.
   */
  async encryptInPlace(key: string): Promise<'encrypted' | 'already' | 'missing'> {
    const info = await this.inner.stat(key);
    if (!info) return 'missing';
    let source: Readable;
    try {
      source = await this.inner.get(key);
    } catch (error) {
      if (error instanceof ObjectNotFoundError) return 'missing';
      throw error;
    }
    const { head, stream } = await peek(source, HEADER_BYTES);
    if (isEncryptedHeader(head)) {
      stream.destroy();
      return 'already';
    }
    await this.putEncrypted(key, stream, { contentType: info.contentType });
    return 'encrypted';
  }

  /** Whether the object is stored encrypted (for the background pass and the tests). */
  async isEncrypted(key: string): Promise<boolean> {
    const info = await this.inner.stat(key);
    return info ? (await this.headerOf(key, info)) !== null : false;
  }

  /** False when the company never had a key: its objects are all plain, read as they are. */
  private async mayBeEncrypted(companyId: string): Promise<boolean> {
    return this.keys.mayHaveEncrypted ? this.keys.mayHaveEncrypted(companyId) : true;
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertValidRange(range);
    const companyId = this.companyOf(key);
    if (!(await this.mayBeEncrypted(companyId))) return this.inner.get(key, range);
    const known = this.headers.latest(key);
    const tried = known ? await this.readKnownVersion(key, range, companyId, known) : undefined;
    if (tried && 'read' in tried) return tried.read;
    // The stat the attempt made, when it answered: the object changed or is gone, and is not asked again.
    const info = tried?.stat !== undefined ? tried.stat : await this.inner.stat(key);
    if (!info) return this.inner.get(key, range);
    const header = await this.headerOf(key, info);
    if (!header) return this.inner.get(key, range);
    const plan = planRead(header, info.size, range);
    const dataKey = await this.dataKeyToRead(companyId);
    return this.decrypted(await this.inner.get(key, plan.stored), dataKey, header, plan.opts);
  }

  /**
   * A read of an object whose header is known, for the version it was read from: the stat that
   * says the object still has that version and the read of the range go together, so a playback
   * range costs one round trip to the store, as a plain one does, not two. When the object has
   * changed or either request failed, nothing read is kept and the answer is what the stat said
   * (undefined if it was not made or failed): the caller goes on from there, as after its own stat.
   */
  private async readKnownVersion(
    key: string,
    range: ByteRange | undefined,
    companyId: string,
    known: { version: string; value: KnownHeader },
  ): Promise<{ read: Readable } | { stat: ObjectInfo | null | undefined }> {
    let plan: ReturnType<typeof planRead>;
    try {
      plan = planRead(known.value.header, known.value.storedSize, range);
    } catch {
      // Past the end of the version known: the object may have grown since.
      return { stat: undefined };
    }
    const dataKey = await this.dataKeyToRead(companyId);
    const [info, source] = await Promise.allSettled([this.inner.stat(key), this.inner.get(key, plan.stored)]);
    if (info.status === 'fulfilled' && info.value?.version === known.version && source.status === 'fulfilled') {
      return { read: this.decrypted(source.value, dataKey, known.value.header, plan.opts) };
    }
    if (source.status === 'fulfilled') source.value.destroy();
    return { stat: info.status === 'fulfilled' ? info.value : undefined };
  }

  private async dataKeyToRead(companyId: string): Promise<Buffer> {
    const dataKey = await this.keys.dataKey(companyId);
    if (!dataKey)
      throw new KeyUnavailableError(`The data key of company ${companyId} is gone: the object cannot be decrypted`);
    return dataKey;
  }

  private decrypted(source: Readable, dataKey: Buffer, header: Buffer, opts: DecryptOptions): Readable {
    const plain = decryptingStream(dataKey, header, opts);
    // pipe with the two ends tied by hand rather than pipeline(): pipeline aborts an
    // AbortController when it finishes, and the DOMException that makes (a stack trace each time)
    // cost more per playback range than a chunk's decryption.
    source.on('error', (error) => plain.destroy(error));
    plain.on('close', () => source.destroy());
    source.pipe(plain);
    return plain;
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    const info = await this.inner.stat(key);
    if (!info || !(await this.mayBeEncrypted(this.companyOf(key)))) return info;
    const header = await this.headerOf(key, info);
    return header ? { ...info, size: plainSizeOf(info.size, readHeader(header).chunkSize) } : info;
  }

  delete(key: string): Promise<void> {
    this.headers.delete(key);
    return this.inner.delete(key);
  }
}
