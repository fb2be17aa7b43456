import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { jest } from '@jest/globals';
import S3rver from 's3rver';
import {
  ConfigError,
  createStorage,
  InvalidObjectKeyError,
  LocalDiskStorage,
  ObjectNotFoundError,
  S3Storage,
  storageConfigShape,
  type ObjectStorage,
} from '@earshot/kit';
import { z } from 'zod';
import { filesUnder } from './helpers';

jest.setTimeout(60_000);

const MiB = 1024 * 1024;
const data = randomBytes(13 * MiB); // more than two 5 MiB parts: a real multipart upload on S3

async function read(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Yields `buffer` in uneven pieces, then fails if `failAt` is reached. */
function pieces(buffer: Buffer, failAt?: number): Readable {
  return Readable.from(
    (function* () {
      for (let at = 0; at < buffer.length; at += 777_777) {
        if (failAt !== undefined && at >= failAt) throw new Error('client went away');
        yield buffer.subarray(at, at + 777_777);
      }
    })(),
  );
}

/** The same contract, for both adapters. */
function contract(name: string, open: () => Promise<{ storage: ObjectStorage; leftovers: () => Promise<string[]> }>) {
  describe(name, () => {
    let storage: ObjectStorage;
    let leftovers: () => Promise<string[]>;
    beforeAll(async () => ({ storage, leftovers } = await open()));

    test('put streams an object in; stat and get give it back exactly', async () => {
      const { size } = await storage.put('company-a/big', pieces(data), { contentType: 'audio/wav' });
      expect(size).toBe(data.length);
      expect(await storage.stat('company-a/big')).toEqual({
        size: data.length,
        contentType: 'audio/wav',
        version: expect.any(String),
      });
      expect((await read(await storage.get('company-a/big'))).equals(data)).toBe(true);
    });

    test("an object written again has another version (what the encrypting storage's header cache relies on)", async () => {
      await storage.put('company-a/versioned', Readable.from([Buffer.from('first')]), { contentType: 'audio/wav' });
      const first = (await storage.stat('company-a/versioned'))!.version;
      await storage.put('company-a/versioned', Readable.from([Buffer.from('other')]), { contentType: 'audio/ogg' });
      const again = (await storage.stat('company-a/versioned'))!;
      expect(again.version).not.toBe(first);
      // The local store remembers content types by version: the new one is told, not the first.
      expect(again.contentType).toBe('audio/ogg');
      await storage.delete('company-a/versioned');
    });

    test('small and empty objects', async () => {
      await storage.put('company-a/small', Readable.from([Buffer.from('hello')]), {
        contentType: 'audio/mpeg',
        size: 5,
      });
      expect((await read(await storage.get('company-a/small'))).toString()).toBe('hello');
      await storage.put('company-a/empty', Readable.from([]), { contentType: 'audio/ogg' });
      expect(await storage.stat('company-a/empty')).toEqual({
        size: 0,
        contentType: 'audio/ogg',
        version: expect.any(String),
      });
    });

    test('get with a range reads exactly those bytes, across part boundaries too', async () => {
      for (const [start, end] of [
        [0, 0],
        [10, 19],
        [5 * MiB - 3, 5 * MiB + 2],
        [data.length - 7, data.length - 1],
      ] as const) {
        const bytes = await read(await storage.get('company-a/big', { start, end }));
        expect(bytes.equals(data.subarray(start, end + 1))).toBe(true);
      }
    });

    test('a put that fails midway leaves nothing behind', async () => {
      const before = await leftovers();
      await expect(
        storage.put('company-a/broken', pieces(data, 11 * MiB), { contentType: 'audio/wav' }),
      ).rejects.toThrow('client went away');
      expect(await storage.stat('company-a/broken')).toBeNull();
      expect(await leftovers()).toEqual(before);
    });

    test('missing keys: stat null, get throws ObjectNotFoundError, delete is a no-op', async () => {
      expect(await storage.stat('company-a/nothing')).toBeNull();
      await expect(storage.get('company-a/nothing')).rejects.toBeInstanceOf(ObjectNotFoundError);
      await expect(storage.delete('company-a/nothing')).resolves.toBeUndefined();
    });

    test('delete removes the object', async () => {
      await storage.put('company-a/gone', Readable.from([Buffer.from('bye')]), { contentType: 'audio/wav' });
      await storage.delete('company-a/gone');
      expect(await storage.stat('company-a/gone')).toBeNull();
      await expect(storage.get('company-a/gone')).rejects.toBeInstanceOf(ObjectNotFoundError);
    });

    test.each([
      '../secrets.json',
      '/etc/passwd',
      'a/../../b',
      'a//b',
      '',
      'a\\b',
      '.meta/x',
      'a/.hidden',
      'a/b\u0000',
      'a/ b',
    ])('refuses the key %j', async (key) => {
      await expect(
        storage.put(key, Readable.from([Buffer.from('x')]), { contentType: 'audio/wav' }),
      ).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(storage.get(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(storage.stat(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(storage.delete(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
    });
  });
}

const localRoot = mkdtempSync(join(tmpdir(), 'earshot-local-'));
afterAll(() => rmSync(localRoot, { recursive: true, force: true }));
contract('LocalDiskStorage', async () => {
  const root = join(localRoot, 'objects');
  // A file outside the root that a traversal would reach.
  writeFileSync(join(localRoot, 'secrets.json'), 'secret');
  return { storage: new LocalDiskStorage(root), leftovers: async () => filesUnder(root).sort() };
});

let s3rver: S3rver | undefined;
const s3Dir = mkdtempSync(join(tmpdir(), 'earshot-s3rver-'));
afterAll(async () => {
  await s3rver?.close();
  rmSync(s3Dir, { recursive: true, force: true });
});
contract('S3Storage against a local s3rver', async () => {
  s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir });
  const { port } = await s3rver.run();
  const storage = new S3Storage({
    endpoint: `http://127.0.0.1:${port}`,
    bucket: 'earshot-audio',
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    region: 'us-east-1',
    partSize: 5 * MiB,
  });
  // Completed objects only: an aborted multipart upload leaves no object.
  const leftovers = async () => {
    const names: string[] = [];
    for await (const item of (await storage.client()).listObjectsV2('earshot-audio', '', true))
      names.push((item as { name: string }).name);
    return names.sort();
  };
  return { storage, leftovers };
});

describe('createStorage', () => {
  const parse = (env: Record<string, string>) => ({ ...z.object(storageConfigShape).parse(env), DATA_DIR: localRoot });

  test('local by default, under DATA_DIR/objects', async () => {
    const storage = createStorage(parse({}));
    expect(storage.kind).toBe('local');
    await storage.put('x/y', Readable.from([Buffer.from('z')]), { contentType: 'audio/wav' });
    expect(filesUnder(join(localRoot, 'objects'))).toContain(join('x', 'y'));
  });

  test('s3 without its keys refuses to start, naming each missing key', () => {
    expect(() => createStorage(parse({ STORAGE_DRIVER: 's3', S3_BUCKET: 'audio' }))).toThrow(ConfigError);
    try {
      createStorage(parse({ STORAGE_DRIVER: 's3', S3_BUCKET: 'audio' }));
    } catch (error) {
      expect((error as ConfigError).problems.join('\n')).toMatch(/S3_ENDPOINT[\s\S]*S3_ACCESS_KEY[\s\S]*S3_SECRET_KEY/);
    }
    expect(() => parse({ STORAGE_DRIVER: 's3', S3_BUCKET: 'Not_A_Bucket' })).toThrow();
  });

  test('s3 with every key builds an S3 storage', () => {
    const storage = createStorage(
      parse({
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_BUCKET: 'audio',
        S3_ACCESS_KEY: 'a',
        S3_SECRET_KEY: 'b',
      }),
    );
    expect(storage.kind).toBe('s3');
  });
});
