import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import type { ByteRange } from '../storage/types';

/**
 * The chunked AES-256-GCM format of objects encrypted at rest:
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

/**
 * Opens one sealed chunk given as consecutive pieces (ciphertext then tag, as they arrived) and
 * returns its plain bytes in pieces too: nothing is copied to join them.
 */
function openChunk(key: Buffer, header: Buffer, index: number, sealed: Buffer[], last: boolean): Buffer[] {
  const length = sealed.reduce((n, piece) => n + piece.length, 0);
  if (length < TAG_BYTES) throw new DecryptionError(`Chunk ${index} is truncated`);
  const decipher = createDecipheriv('aes-256-gcm', key, nonceOf(header, index));
  decipher.setAAD(aadOf(header, last));
  const body = splitAt(sealed, length - TAG_BYTES);
  decipher.setAuthTag(body.rest.length === 1 ? body.rest[0]! : Buffer.concat(body.rest, TAG_BYTES));
  try {
    const plain = body.head.map((piece) => decipher.update(piece));
    decipher.final();
    return plain;
  } catch {
    throw new DecryptionError(`Chunk ${index} failed authentication (altered, truncated or another key)`);
  }
}

/** Pieces split after `n` bytes, without copying (a piece that straddles the point is cut in two). */
function splitAt(pieces: Buffer[], n: number): { head: Buffer[]; rest: Buffer[] } {
  const head: Buffer[] = [];
  const rest: Buffer[] = [];
  let left = n;
  for (const piece of pieces) {
    if (left >= piece.length) head.push(piece);
    else if (left <= 0) rest.push(piece);
    else {
      head.push(piece.subarray(0, left));
      rest.push(piece.subarray(left));
    }
    left -= piece.length;
  }
  return { head, rest };
}

/**
 * A queue of buffers from which pieces of a given length are taken as the buffers they span
 * (subarrays, never copies): an upload arrives in pieces of any size, and joining them into
 * chunk-sized buffers cost a copy of every byte.
 */
class ByteQueue {
  private parts: Buffer[] = [];
  length = 0;

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.parts.push(chunk);
    this.length += chunk.length;
  }

  take(n: number): Buffer[] {
    const taken: Buffer[] = [];
    let left = Math.min(n, this.length);
    this.length -= left;
    while (left > 0) {
      const first = this.parts[0]!;
      if (first.length <= left) {
        taken.push(first);
        this.parts.shift();
        left -= first.length;
      } else {
        taken.push(first.subarray(0, left));
        this.parts[0] = first.subarray(left);
        left = 0;
      }
    }
    return taken;
  }
}

/** Plain bytes of an encrypted object of `storedSize` bytes (every object has at least one chunk). */
export function plainSizeOf(storedSize: number, chunkSize: number): number {
  const body = storedSize - HEADER_BYTES;
  const chunks = Math.ceil(body / (chunkSize + TAG_BYTES));
  if (body < TAG_BYTES || chunks < 1) throw new DecryptionError('Encrypted object too short');
  return body - chunks * TAG_BYTES;
}

/**
 * Seals one chunk (given as the pieces it arrived in) and hands on its ciphertext and tag as they
 * come, without joining them: the storage underneath writes what queued up in one writev, and a
 * copy of every byte (and its garbage) would cost more than the crypto.
 */
function sealChunk(out: Transform, key: Buffer, header: Buffer, index: number, plain: Buffer[], last: boolean): void {
  const cipher = createCipheriv('aes-256-gcm', key, nonceOf(header, index));
  cipher.setAAD(aadOf(header, last));
  for (const piece of plain) out.push(cipher.update(piece));
  cipher.final();
  out.push(cipher.getAuthTag());
}

/** Encrypts a stream into the chunked format under `key` (32 bytes). */
export function encryptingStream(
  key: Buffer,
  chunkSize = DEFAULT_CHUNK_BYTES,
): Transform & { readonly plainBytes: number } {
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header.writeUInt32BE(chunkSize, 4);
  randomBytes(8).copy(header, 8);
  const pending = new ByteQueue();
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
      // Strictly more than one chunk held: the last chunk is sealed only at the end, as "last".
      while (pending.length > chunkSize) sealChunk(this, key, header, index++, pending.take(chunkSize), false);
      callback();
    },
    flush(callback: TransformCallback) {
      start(this);
      sealChunk(this, key, header, index, pending.take(pending.length), true);
      callback();
    },
  });
  return Object.defineProperty(stream, 'plainBytes', { get: () => plainBytes }) as Transform & {
    readonly plainBytes: number;
  };
}

/** Where the chunks covering a plain range sit in the stored object. */
export function storedRangeOf(
  range: ByteRange,
  chunkSize: number,
  storedSize: number,
): { stored: ByteRange; firstChunk: number; lastChunk: number; skip: number } {
  const firstChunk = Math.floor(range.start / chunkSize);
  const lastChunk = Math.floor(range.end / chunkSize);
  const sealed = chunkSize + TAG_BYTES;
  return {
    stored: {
      start: HEADER_BYTES + firstChunk * sealed,
      end: Math.min(HEADER_BYTES + (lastChunk + 1) * sealed, storedSize) - 1,
    },
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
export function decryptingStream(
  key: Buffer,
  header: Buffer,
  opts: { firstChunk: number; finalChunk: number; skip: number; length: number },
): Transform {
  const { chunkSize } = readHeader(header);
  const sealed = chunkSize + TAG_BYTES;
  let index = opts.firstChunk;
  let skip = opts.skip;
  let left = opts.length;
  const pending = new ByteQueue();
  const emit = (stream: Transform, sealedPieces: Buffer[]) => {
    const plain = openChunk(key, header, index, sealedPieces, index === opts.finalChunk);
    index++;
    for (let piece of plain) {
      if (skip) {
        const cut = Math.min(skip, piece.length);
        piece = piece.subarray(cut);
        skip -= cut;
      }
      if (piece.length > left) piece = piece.subarray(0, left);
      left -= piece.length;
      if (piece.length) stream.push(piece);
    }
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      try {
        pending.push(chunk);
        while (pending.length >= sealed && left > 0) emit(this, pending.take(sealed));
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
    flush(callback: TransformCallback) {
      try {
        if (pending.length > 0 && left > 0) emit(this, pending.take(pending.length));
        if (left > 0) throw new DecryptionError('Encrypted object ended early');
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });
}
