import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import type { ByteRange } from '../storage/types';

/**
 * The chunked AES-256-GCM format of objects encrypted at rest (issue 25):
 *
 *   header (16 bytes): magic "ESC1" | chunk size (uint32 BE) | nonce prefix (8 random bytes)
 *   chunks: ciphertext of `chunk size` plain bytes (the last one shorter, possibly empty) | tag (16)
 *
 * Chunk i's nonce is the prefix followed by i (uint32 BE); its additional data is the header and
 * one byte saying whether it is the last chunk. Each chunk decrypts on its own, so a byte range
 * costs only the chunks it covers; a moved, altered or swapped chunk fails its tag, and cutting
 * the object at a chunk edge fails too (the new last chunk was sealed as "not last").
 */
export const MAGIC = Buffer.from('ESC1', 'ascii');
export const HEADER_BYTES = 16;
export const TAG_BYTES = 16;
export const DEFAULT_CHUNK_BYTES = 64 * 1024;

export class DecryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DecryptionError';
  }
}

export interface ChunkHeader {
  chunkSize: number;
  header: Buffer;
}

export function isEncryptedHeader(head: Buffer): boolean {
  return head.length >= HEADER_BYTES && head.subarray(0, 4).equals(MAGIC);
}

export function readHeader(head: Buffer): ChunkHeader {
  if (!isEncryptedHeader(head)) throw new DecryptionError('Not an encrypted object');
  const chunkSize = head.readUInt32BE(4);
  if (chunkSize < 16 || chunkSize > 16 * 1024 * 1024) throw new DecryptionError('Invalid chunk size in header');
  return { chunkSize, header: Buffer.from(head.subarray(0, HEADER_BYTES)) };
}

function nonceOf(header: Buffer, index: number): Buffer {
  const nonce = Buffer.alloc(12);
  header.copy(nonce, 0, 8, 16);
  nonce.writeUInt32BE(index, 8);
  return nonce;
}

function aadOf(header: Buffer, last: boolean): Buffer {
  return Buffer.concat([header, Buffer.from([last ? 1 : 0])]);
}

function sealChunk(key: Buffer, header: Buffer, index: number, plain: Buffer, last: boolean): Buffer {
  const cipher = createCipheriv('aes-256-gcm', key, nonceOf(header, index));
  cipher.setAAD(aadOf(header, last));
  return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

function openChunk(key: Buffer, header: Buffer, index: number, sealed: Buffer, last: boolean): Buffer {
  if (sealed.length < TAG_BYTES) throw new DecryptionError(`Chunk ${index} is truncated`);
  const decipher = createDecipheriv('aes-256-gcm', key, nonceOf(header, index));
  decipher.setAAD(aadOf(header, last));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new DecryptionError(`Chunk ${index} failed authentication (altered, truncated or another key)`);
  }
}

/** Plain bytes of an encrypted object of `storedSize` bytes (every object has at least one chunk). */
export function plainSizeOf(storedSize: number, chunkSize: number): number {
  const body = storedSize - HEADER_BYTES;
  const chunks = Math.ceil(body / (chunkSize + TAG_BYTES));
  if (body < TAG_BYTES || chunks < 1) throw new DecryptionError('Encrypted object too short');
  return body - chunks * TAG_BYTES;
}

/** Encrypts a stream into the chunked format under `key` (32 bytes). */
export function encryptingStream(key: Buffer, chunkSize = DEFAULT_CHUNK_BYTES): Transform & { readonly plainBytes: number } {
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header.writeUInt32BE(chunkSize, 4);
  randomBytes(8).copy(header, 8);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let index = 0;
  let started = false;
  const start = (stream: Transform) => {
    if (!started) stream.push(header);
    started = true;
  };
  let plainBytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      start(this);
      plainBytes += chunk.length;
      pending.push(chunk);
      pendingBytes += chunk.length;
      // Strictly more than one chunk held: the last chunk is sealed only at the end, as "last".
      if (pendingBytes > chunkSize) {
        let all = Buffer.concat(pending, pendingBytes);
        while (all.length > chunkSize) {
          this.push(sealChunk(key, header, index++, all.subarray(0, chunkSize), false));
          all = all.subarray(chunkSize);
        }
        pending = [all];
        pendingBytes = all.length;
      }
      callback();
    },
    flush(callback: TransformCallback) {
      start(this);
      this.push(sealChunk(key, header, index, Buffer.concat(pending, pendingBytes), true));
      callback();
    },
  });
  return Object.defineProperty(stream, 'plainBytes', { get: () => plainBytes }) as Transform & { readonly plainBytes: number };
}

/** Where the chunks covering a plain range sit in the stored object. */
export function storedRangeOf(range: ByteRange, chunkSize: number, storedSize: number): { stored: ByteRange; firstChunk: number; lastChunk: number; skip: number } {
  const firstChunk = Math.floor(range.start / chunkSize);
  const lastChunk = Math.floor(range.end / chunkSize);
  const sealed = chunkSize + TAG_BYTES;
  return {
    stored: { start: HEADER_BYTES + firstChunk * sealed, end: Math.min(HEADER_BYTES + (lastChunk + 1) * sealed, storedSize) - 1 },
    firstChunk,
    lastChunk,
    skip: range.start - firstChunk * chunkSize,
  };
}

/**
 * Decrypts stored bytes that start at chunk `firstChunk` and passes `length` plain bytes from
 * `skip` on. `finalChunk` is the object's last chunk index (sealed as "last"). A chunk that fails
 * authentication errors the stream: never wrong bytes.
 */
export function decryptingStream(key: Buffer, header: Buffer, opts: { firstChunk: number; finalChunk: number; skip: number; length: number }): Transform {
  const { chunkSize } = readHeader(header);
  const sealed = chunkSize + TAG_BYTES;
  let index = opts.firstChunk;
  let skip = opts.skip;
  let left = opts.length;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const emit = (stream: Transform, piece: Buffer) => {
    let plain = openChunk(key, header, index, piece, index === opts.finalChunk);
    index++;
    if (skip) {
      plain = plain.subarray(skip);
      skip = 0;
    }
    if (plain.length > left) plain = plain.subarray(0, left);
    left -= plain.length;
    if (plain.length) stream.push(plain);
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      try {
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= sealed) {
          let all = Buffer.concat(pending, pendingBytes);
          while (all.length >= sealed && left > 0) {
            emit(this, all.subarray(0, sealed));
            all = all.subarray(sealed);
          }
          pending = [all];
          pendingBytes = all.length;
        }
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
    flush(callback: TransformCallback) {
      try {
        if (pendingBytes > 0 && left > 0) emit(this, Buffer.concat(pending, pendingBytes));
        if (left > 0) throw new DecryptionError('Encrypted object ended early');
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });
}
