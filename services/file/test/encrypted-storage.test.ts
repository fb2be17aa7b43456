import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { jest } from '@jest/globals';
import S3rver from 's3rver';
import {
  DecryptionError,
  EncryptingStorage,
  KeyUnavailableError,
  LocalDiskStorage,
  MasterKeys,
  S3Storage,
  type ObjectStorage,
} from '@earshot/kit';

jest.setTimeout(60_000);

/** A RIFF/WAV-looking recording with a spoken word's text inside: neither may be found once encrypted. */
const WORD = 'CONFIDENTIALWORD';
const audio = Buffer.concat([
  Buffer.from('RIFF\x24\x00\x10\x00WAVEfmt '),
  randomBytes(300_000),
  Buffer.from(WORD.repeat(50)),
  randomBytes(123_457),
]);
const CHUNK = 4096;

async function read(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** An in-memory key ring: the storage wrapper is tested here; the PostgreSQL ring in encryption.test.ts. */
function keyRing() {
  const keys = new Map<string, Buffer>();
  const on = new Set<string>();
  return {
    keys,
    on,
    ring: {
      encrypts: async (companyId: string) => on.has(companyId),
      dataKey: async (companyId: string) => keys.get(companyId) ?? null,
    },
  };
}

function suite(
  name: string,
  open: () => Promise<{
    inner: ObjectStorage;
    rawOf: (key: string) => Promise<Buffer>;
    tamper: (key: string, at: number) => Promise<void>;
  }>,
) {
  describe(name, () => {
    let inner: ObjectStorage;
    let rawOf: (key: string) => Promise<Buffer>;
    let tamper: (key: string, at: number) => Promise<void>;
    const { keys, on, ring } = keyRing();
    const company = randomUUID();
    const plainCompany = randomUUID();
    let storage: EncryptingStorage;
    beforeAll(async () => {
      ({ inner, rawOf, tamper } = await open());
      storage = new EncryptingStorage(inner, ring, CHUNK);
      keys.set(company, randomBytes(32));
      on.add(company);
    });

    test("an encrypted company's object holds no plaintext and reads back whole", async () => {
      const key = `${company}/${randomUUID()}`;
      expect(
        await storage.put(key, Readable.from([audio.subarray(0, 1000), audio.subarray(1000)]), {
          contentType: 'audio/wav',
        }),
      ).toEqual({ size: audio.length });
      const raw = await rawOf(key);
      expect(raw.includes(Buffer.from('RIFF'))).toBe(false);
      expect(raw.includes(Buffer.from('WAVE'))).toBe(false);
      expect(raw.includes(Buffer.from(WORD))).toBe(false);
      expect(await storage.stat(key)).toEqual({
        size: audio.length,
        contentType: 'audio/wav',
        version: expect.any(String),
      });
      expect(await storage.isEncrypted(key)).toBe(true);
      expect((await read(await storage.get(key))).equals(audio)).toBe(true);
    });

    test('byte ranges across chunk edges return exactly the plaintext bytes', async () => {
      const key = `${company}/${randomUUID()}`;
      await storage.put(key, Readable.from([audio]), { contentType: 'audio/wav' });
      const last = audio.length - 1;
      const ranges = [
        [0, 0],
        [0, 43],
        [CHUNK - 1, CHUNK],
        [CHUNK - 5, 3 * CHUNK + 7],
        [CHUNK, 2 * CHUNK - 1],
        [100_000, 100_000],
        [last - CHUNK - 3, last],
        [last, last],
        [5 * CHUNK + 1, last],
        [0, last],
      ];
      for (const [start, end] of ranges) {
        const got = await read(await storage.get(key, { start: start!, end: end! }));
        expect({ start, end, ok: got.equals(audio.subarray(start!, end! + 1)) }).toEqual({ start, end, ok: true });
      }
    });

    test('empty and exact-multiple objects', async () => {
      const empty = `${company}/${randomUUID()}`;
      await storage.put(empty, Readable.from([]), { contentType: 'audio/ogg' });
      expect((await storage.stat(empty))?.size).toBe(0);
      expect((await read(await storage.get(empty))).length).toBe(0);
      const exact = `${company}/${randomUUID()}`;
      const body = audio.subarray(0, 3 * CHUNK);
      await storage.put(exact, Readable.from([body]), { contentType: 'audio/ogg' });
      expect((await read(await storage.get(exact))).equals(body)).toBe(true);
      expect(
        (await read(await storage.get(exact, { start: 2 * CHUNK, end: 3 * CHUNK - 1 }))).equals(
          body.subarray(2 * CHUNK),
        ),
      ).toBe(true);
    });

    test('a company without encryption is stored in plain, as before', async () => {
      const key = `${plainCompany}/${randomUUID()}`;
      await storage.put(key, Readable.from([audio]), { contentType: 'audio/wav' });
      expect((await rawOf(key)).equals(audio)).toBe(true);
      expect((await read(await storage.get(key, { start: 10, end: 20 }))).equals(audio.subarray(10, 21))).toBe(true);
    });

    test('a tampered chunk fails authentication rather than giving wrong bytes', async () => {
      const key = `${company}/${randomUUID()}`;
      await storage.put(key, Readable.from([audio]), { contentType: 'audio/wav' });
      await tamper(key, 16 + (CHUNK + 16) * 2 + 10); // a byte in the third chunk
      await expect(read(await storage.get(key))).rejects.toThrow(DecryptionError);
      await expect(read(await storage.get(key, { start: 2 * CHUNK, end: 2 * CHUNK + 1 }))).rejects.toThrow(
        /failed authentication/,
      );
      // Chunks before it are intact and still read.
      expect((await read(await storage.get(key, { start: 0, end: CHUNK - 1 }))).equals(audio.subarray(0, CHUNK))).toBe(
        true,
      );
    });

    test("once the company's data key is destroyed, nothing decrypts", async () => {
      const other = randomUUID();
      keys.set(other, randomBytes(32));
      on.add(other);
      const key = `${other}/${randomUUID()}`;
      await storage.put(key, Readable.from([audio]), { contentType: 'audio/wav' });
      keys.delete(other);
      await expect(storage.get(key)).rejects.toThrow(KeyUnavailableError);
      // Nor with another key: the raw object is not plaintext under any key but its own.
      keys.set(other, randomBytes(32));
      await expect(read(await storage.get(key))).rejects.toThrow(DecryptionError);
    });
  });
}

const localRoot = mkdtempSync(join(tmpdir(), 'earshot-enc-'));
afterAll(() => rmSync(localRoot, { recursive: true, force: true }));
suite('EncryptingStorage on local disk', async () => {
  const root = join(localRoot, 'objects');
  const inner = new LocalDiskStorage(root);
  return {
    inner,
    rawOf: async (key) => readFileSync(join(root, key)),
    tamper: async (key, at) => {
      const raw = readFileSync(join(root, key));
      raw[at]! ^= 0x01;
      writeFileSync(join(root, key), raw);
    },
  };
});

let s3rver: S3rver | undefined;
const s3Dir = mkdtempSync(join(tmpdir(), 'earshot-enc-s3-'));
afterAll(async () => {
  await s3rver?.close();
  rmSync(s3Dir, { recursive: true, force: true });
});
suite('EncryptingStorage on S3 (s3rver)', async () => {
  s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir });
  const { port } = await s3rver.run();
  const inner = new S3Storage({
    endpoint: `http://127.0.0.1:${port}`,
    bucket: 'earshot-enc',
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    region: 'us-east-1',
  });
  const rawOf = async (key: string) => read(await inner.get(key));
  return {
    inner,
    rawOf,
    tamper: async (key, at) => {
      const raw = await rawOf(key);
      raw[at]! ^= 0x01;
      await inner.put(key, Readable.from([raw]), { contentType: 'audio/wav' });
    },
  };
});

describe('MasterKeys', () => {
  test('rotation: a key wrapped by the previous master key unwraps, and rewraps under the new one', () => {
    const oldMaster = randomBytes(32);
    const newMaster = randomBytes(32);
    const company = randomUUID();
    const dataKey = randomBytes(32);
    const wrapped = new MasterKeys(oldMaster).wrap(company, dataKey);
    const rotated = new MasterKeys(newMaster, [oldMaster]);
    const rewrapped = rotated.wrap(company, rotated.unwrap(company, wrapped));
    expect(MasterKeys.idOfWrapped(rewrapped)).toBe(rotated.currentId);
    expect(new MasterKeys(newMaster).unwrap(company, rewrapped).equals(dataKey)).toBe(true);
    expect(() => new MasterKeys(newMaster).unwrap(company, wrapped)).toThrow(KeyUnavailableError);
    // Bound to its company: another company's row cannot borrow it.
    expect(() => new MasterKeys(newMaster).unwrap(randomUUID(), rewrapped)).toThrow(KeyUnavailableError);
  });
});
