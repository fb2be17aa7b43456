import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  decryptingStream,
  DecryptionError,
  encryptingStream,
  HEADER_BYTES,
  plainSizeOf,
  readHeader,
  storedRangeOf,
} from '../src/crypto/chunked';

// The chunked format takes its input and its stored bytes in pieces of any size (an upload's
// multipart parts, a disk's or a socket's reads) without joining them: these cases cut both at
// awkward places (inside a tag, one byte either side of a chunk edge) and compare every byte.

const CHUNK = 1024;
const key = randomBytes(32);
const plain = randomBytes(10 * CHUNK + 300);

/** `data` in pieces of the given sizes, cycled. */
function inPieces(data: Buffer, sizes: number[]): Readable {
  const pieces: Buffer[] = [];
  for (let at = 0, i = 0; at < data.length; i++) {
    const size = sizes[i % sizes.length]!;
    pieces.push(data.subarray(at, at + size));
    at += size;
  }
  return Readable.from(pieces);
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function seal(data: Buffer, sizes: number[]): Promise<Buffer> {
  return collect(inPieces(data, sizes).pipe(encryptingStream(key, CHUNK)));
}

/** The plain bytes start..end read back from `stored`, its bytes arriving in pieces of `sizes`. */
async function open(stored: Buffer, start: number, end: number, sizes: number[]): Promise<Buffer> {
  const { header, chunkSize } = readHeader(stored.subarray(0, HEADER_BYTES));
  const plainSize = plainSizeOf(stored.length, chunkSize);
  const at = storedRangeOf({ start, end }, chunkSize, stored.length);
  const finalChunk = Math.max(0, Math.ceil(plainSize / chunkSize) - 1);
  const source = inPieces(stored.subarray(at.stored.start, at.stored.end + 1), sizes);
  return collect(
    source.pipe(
      decryptingStream(key, header, { firstChunk: at.firstChunk, finalChunk, skip: at.skip, length: end - start + 1 }),
    ),
  );
}

const PIECES = [[1], [7, 1000, 3], [CHUNK - 1], [CHUNK + 1], [CHUNK + 16], [5 * CHUNK], [CHUNK + 15, 2]];

test.each(PIECES.map((sizes) => [sizes.join(', '), sizes] as const))(
  'sealed from pieces of %s bytes, it reads back whole and by ranges from pieces of any size',
  async (_name, sizes) => {
    const stored = await seal(plain, sizes);
    expect(plainSizeOf(stored.length, CHUNK)).toBe(plain.length);
    for (const readSizes of PIECES) {
      expect((await open(stored, 0, plain.length - 1, readSizes)).equals(plain)).toBe(true);
      for (const [start, end] of [
        [0, 0],
        [CHUNK - 1, CHUNK],
        [CHUNK, 2 * CHUNK - 1],
        [CHUNK + 5, 4 * CHUNK + 7],
        [plain.length - 1, plain.length - 1],
      ]) {
        expect((await open(stored, start!, end!, readSizes)).equals(plain.subarray(start, end! + 1))).toBe(true);
      }
    }
  },
);

test('one altered byte in any chunk, its tag included, fails that read rather than giving wrong bytes', async () => {
  const stored = await seal(plain, [333]);
  for (const at of [HEADER_BYTES, HEADER_BYTES + CHUNK + 3, HEADER_BYTES + CHUNK + 16 - 1, stored.length - 1]) {
    const altered = Buffer.from(stored);
    altered[at]! ^= 1;
    await expect(open(altered, 0, plain.length - 1, [100])).rejects.toThrow(DecryptionError);
  }
});

test('an object cut at a chunk edge fails: its new last chunk was sealed as not last', async () => {
  const stored = await seal(plain, [CHUNK]);
  const cut = stored.subarray(0, HEADER_BYTES + 3 * (CHUNK + 16));
  await expect(open(cut, 0, 3 * CHUNK - 1, [500])).rejects.toThrow(DecryptionError);
});

test('an empty input is one empty last chunk, read back as nothing', async () => {
  const stored = await seal(Buffer.alloc(0), [1]);
  expect(stored.length).toBe(HEADER_BYTES + 16);
  expect(plainSizeOf(stored.length, CHUNK)).toBe(0);
});
