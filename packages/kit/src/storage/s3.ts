import { Readable, Transform } from 'node:stream';
import type { Client } from 'minio';
import {
  assertValidKey,
  assertValidRange,
  ObjectNotFoundError,
  type ByteRange,
  type ObjectInfo,
  type ObjectStorage,
  type PutOptions,
} from './types';

export interface S3StorageOptions {
  /** http(s)://host[:port] of MinIO or another S3-compatible service. */
  endpoint: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
  region: string;
  /** Bytes per multipart part (at least 5 MiB); the upload holds about two parts in memory. */
  partSize?: number;
}

const MIN_PART = 5 * 1024 * 1024;
const DEFAULT_PART = 8 * 1024 * 1024;
const NOT_FOUND_CODES = new Set(['NoSuchKey', 'NotFound', 'NoSuchObject']);

function isNotFound(error: unknown): boolean {
  return NOT_FOUND_CODES.has((error as { code?: string }).code ?? '');
}

/** Re-chunks a stream into buffers of exactly `size` bytes (the last one shorter). */
async function* fixedChunks(stream: Readable, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    pending.push(buffer);
    length += buffer.length;
    while (length >= size) {
      const whole = Buffer.concat(pending, length);
      yield whole.subarray(0, size);
      pending = length > size ? [whole.subarray(size)] : [];
      length -= size;
    }
  }
  if (length > 0 || pending.length > 0) yield Buffer.concat(pending, length);
}

/**
 * Passes at most `length` bytes, then ends and lets go of the source. Some S3-compatible servers
 * answer `bytes=0-0` with the whole object; callers have promised a Content-Length to their client.
 */
function firstBytes(source: Readable, length: number): Readable {
  let left = length;
  const limiter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (left <= 0) return callback();
      const piece = chunk.length > left ? chunk.subarray(0, left) : chunk;
      left -= piece.length;
      callback(null, piece);
      if (left === 0) {
        limiter.end();
        source.unpipe(limiter);
        source.destroy();
      }
    },
  });
  source.on('error', (error) => limiter.destroy(error));
  limiter.on('close', () => source.destroy());
  return source.pipe(limiter);
}

/**
 * Objects in an S3 bucket through the MinIO client (distributed mode). A put streams with a
 * multipart upload in fixed parts, so memory stays flat whatever the size; an object that fits in
 * one part goes up in a single request; a failed put aborts the multipart upload. The bucket is
 * created on first use when missing.
 */
export class S3Storage implements ObjectStorage {
  readonly kind = 's3' as const;
  private made?: Promise<Client>;
  private readonly url: URL;
  private readonly bucket: string;
  private readonly partSize: number;
  private bucketReady?: Promise<void>;

  constructor(private readonly options: S3StorageOptions) {
    this.url = new URL(options.endpoint);
    this.bucket = options.bucket;
    this.partSize = Math.max(MIN_PART, options.partSize ?? DEFAULT_PART);
  }

  /**
   * The S3 client, made by the first call: minio is imported then, not at start (about 7 MB of heap
   * that a process on local storage, the all-in-one's default, never needs).
   */
  client(): Promise<Client> {
    const { url, options } = this;
    this.made ??= import('minio').then(
      ({ Client }) =>
        new Client({
          endPoint: url.hostname,
          port: url.port ? Number(url.port) : undefined,
          useSSL: url.protocol === 'https:',
          accessKey: options.accessKey,
          secretKey: options.secretKey,
          region: options.region,
          pathStyle: true,
        }),
    );
    return this.made;
  }

  /** Creates the bucket when it does not exist yet (once per process; retried after a failure). */
  ensureBucket(): Promise<void> {
    this.bucketReady ??= (async () => {
      const s3 = await this.client();
      if (await s3.bucketExists(this.bucket)) return;
      try {
        await s3.makeBucket(this.bucket, this.options.region);
      } catch (error) {
        // Another replica may have created it in the meantime.
        if (!['BucketAlreadyOwnedByYou', 'BucketAlreadyExists'].includes((error as { code?: string }).code ?? ''))
          throw error;
      }
    })().catch((error: unknown) => {
      this.bucketReady = undefined;
      throw error;
    });
    return this.bucketReady;
  }

  async put(key: string, stream: Readable, options: PutOptions): Promise<{ size: number }> {
    assertValidKey(key);
    const headers = { 'Content-Type': options.contentType };
    const s3 = await this.client();
    let uploadId: string | undefined;
    const parts: { part: number; etag: string }[] = [];
    let size = 0;
    try {
      await this.ensureBucket();
      // A full part is sent only once the next bytes arrive: the last part may be the only one.
      let held: Buffer | undefined;
      const sendPart = async (body: Buffer) => {
        uploadId ??= await s3.initiateNewMultipartUpload(this.bucket, key, headers);
        const partNumber = parts.length + 1;
        const { etag } = await s3.uploadPart(
          {
            bucketName: this.bucket,
            objectName: key,
            uploadID: uploadId,
            partNumber,
            headers: { 'Content-Length': body.length },
          },
          body,
        );
        parts.push({ part: partNumber, etag });
      };
      for await (const chunk of fixedChunks(stream, this.partSize)) {
        size += chunk.length;
        if (held) await sendPart(held);
        held = chunk;
      }
      if (uploadId === undefined) {
        await s3.putObject(this.bucket, key, held ?? Buffer.alloc(0), held?.length ?? 0, headers);
      } else {
        await sendPart(held!);
        await s3.completeMultipartUpload(this.bucket, key, uploadId, parts);
      }
      return { size };
    } catch (error) {
      stream.destroy();
      if (uploadId !== undefined) {
        await s3.abortMultipartUpload(this.bucket, key, uploadId).catch(() => undefined);
      }
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertValidKey(key);
    assertValidRange(range);
    await this.ensureBucket();
    const s3 = await this.client();
    try {
      if (!range) return await s3.getObject(this.bucket, key);
      const length = range.end - range.start + 1;
      return firstBytes(await s3.getPartialObject(this.bucket, key, range.start, length), length);
    } catch (error) {
      if (isNotFound(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    assertValidKey(key);
    await this.ensureBucket();
    const s3 = await this.client();
    try {
      const info = await s3.statObject(this.bucket, key);
      const contentType = (info.metaData['content-type'] as string | undefined) ?? 'application/octet-stream';
      return { size: info.size, contentType, version: info.etag };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  /** Every stored object's key (what a backup copies), prefixes (folders) excluded. */
  async *keys(): AsyncGenerator<string> {
    await this.ensureBucket();
    const s3 = await this.client();
    const listing = s3.listObjectsV2(this.bucket, '', true) as AsyncIterable<{ name?: string }>;
    for await (const item of listing) if (item.name) yield item.name;
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.ensureBucket();
    const s3 = await this.client();
    try {
      await s3.removeObject(this.bucket, key);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
}
