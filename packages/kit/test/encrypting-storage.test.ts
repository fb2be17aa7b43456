import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { SYSTEM_ACTOR } from '@earshot/contracts';
import {
  buildEnvelope,
  CompanyKeyRing,
  EncryptingStorage,
  KeyUnavailableError,
  LocalDiskStorage,
  MasterKeys,
  migrate,
  ObjectNotFoundError,
  type ByteRange,
  type Database,
  type ObjectInfo,
  type ObjectStorage,
  type PutOptions,
} from '../src';
import { openTestDatabase } from '../src/testing';

// A company that never turned encryption on pays nothing for it: its reads go straight to the
// storage (one request), while a company with a key, or whose key was destroyed, is still looked at.

/** The storage underneath, counting what the wrapper asks of it. */
class CountingStorage implements ObjectStorage {
  readonly kind = 'local' as const;
  calls: string[] = [];
  constructor(private readonly inner: ObjectStorage) {}
  put(key: string, stream: Readable, options: PutOptions): Promise<{ size: number }> {
    this.calls.push('put');
    return this.inner.put(key, stream, options);
  }
  get(key: string, range?: ByteRange): Promise<Readable> {
    this.calls.push(range ? `get ${range.start}-${range.end}` : 'get');
    return this.inner.get(key, range);
  }
  async stat(key: string): Promise<ObjectInfo | null> {
    this.calls.push('stat');
    const info = await this.inner.stat(key);
    this.calls.push('stat answered');
    return info;
  }
  delete(key: string): Promise<void> {
    this.calls.push('delete');
    return this.inner.delete(key);
  }
}

async function read(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const policies = (encryption: boolean) => ({
  redaction: 'off' as const,
  keepOriginal: false,
  encryption,
  retention: { recordingsDays: null, chatsDays: null, auditDays: null },
});
const audio = randomBytes(200_000);

let database: Database;
let dir: string;
let ring: CompanyKeyRing;
let counting: CountingStorage;
let storage: EncryptingStorage;

beforeAll(async () => {
  database = await openTestDatabase();
  ring = new CompanyKeyRing('keys_test', 'file', new MasterKeys(randomBytes(32)));
  await migrate(database, 'keys_test', ring.migrations);
  dir = mkdtempSync(join(tmpdir(), 'earshot-encrypting-'));
  counting = new CountingStorage(new LocalDiskStorage(dir));
  storage = new EncryptingStorage(counting, {
    encrypts: (companyId) => ring.encrypts(database.db, companyId),
    dataKey: (companyId) => ring.dataKey(database.db, companyId),
    mayHaveEncrypted: (companyId) => ring.mayHaveEncrypted(database.db, companyId),
  });
});
afterAll(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

async function turnOn(companyId: string) {
  const envelope = buildEnvelope({
    type: 'company.policies_changed',
    companyId,
    actor: SYSTEM_ACTOR,
    data: { id: companyId, before: policies(false), after: policies(true) },
  } as never);
  await database.db.transaction((tx) =>
    ring
      .handlers()[0]!
      .prepare(envelope)
      .apply(tx, () => undefined),
  );
}

/** A recording of a company with encryption on, stored through the wrapper: its key. */
async function storedEncrypted(): Promise<string> {
  const company = randomUUID();
  await turnOn(company);
  const key = `${company}/call.wav`;
  await storage.put(key, Readable.from([audio]), { contentType: 'audio/wav' });
  return key;
}

async function calls<T>(work: () => Promise<T>): Promise<{ result: T; calls: string[] }> {
  counting.calls = [];
  const result = await work();
  return { result, calls: counting.calls };
}

test('a company that never had a key: get, a range and stat each make one request, no header read', async () => {
  const key = `${randomUUID()}/call.wav`;
  await storage.put(key, Readable.from([audio]), { contentType: 'audio/wav' });
  const whole = await calls(async () => read(await storage.get(key)));
  expect(whole.calls).toEqual(['get']);
  expect(whole.result.equals(audio)).toBe(true);
  const part = await calls(async () => read(await storage.get(key, { start: 100, end: 199 })));
  expect(part.calls).toEqual(['get 100-199']);
  expect(part.result.equals(audio.subarray(100, 200))).toBe(true);
  expect((await calls(() => storage.stat(key))).calls).toEqual(['stat', 'stat answered']);
});

test('a company with a key: reads look at the header and decrypt', async () => {
  const key = await storedEncrypted();
  const part = await calls(async () => read(await storage.get(key, { start: 100, end: 199 })));
  expect(part.calls.slice(0, 3)).toEqual(['stat', 'stat answered', 'get 0-15']);
  expect(part.result.equals(audio.subarray(100, 200))).toBe(true);
});

test('a playback of many ranges reads the header once per version of the object', async () => {
  const key = await storedEncrypted();
  await read(await storage.get(key, { start: 0, end: 99 }));
  const again = await calls(async () => read(await storage.get(key, { start: 70_000, end: 70_099 })));
  expect(again.calls.filter((call) => call === 'get 0-15')).toEqual([]);
  expect(again.result.equals(audio.subarray(70_000, 70_100))).toBe(true);
  // Written again (another nonce prefix in its header): the old header must not be used.
  const other = randomBytes(audio.length);
  await storage.put(key, Readable.from([other]), { contentType: 'audio/wav' });
  const fresh = await calls(async () => read(await storage.get(key, { start: 70_000, end: 70_099 })));
  expect(fresh.calls).toContain('get 0-15');
  expect(fresh.result.equals(other.subarray(70_000, 70_100))).toBe(true);
  // …also when another process rewrote it (here: underneath this wrapper, which saw nothing).
  const writer = new EncryptingStorage(new LocalDiskStorage(dir), {
    encrypts: async () => true,
    dataKey: (id) => ring.dataKey(database.db, id),
  });
  await writer.put(key, Readable.from([audio]), { contentType: 'audio/wav' });
  expect(
    (await read(await storage.get(key, { start: 70_000, end: 70_099 }))).equals(audio.subarray(70_000, 70_100)),
  ).toBe(true);
});

test('a range of an object whose header is known: the version check and the read go out together', async () => {
  const key = await storedEncrypted();
  await read(await storage.get(key, { start: 0, end: 99 }));
  // Chunks are 64 KiB plus a 16-byte tag after a 16-byte header: bytes 70,000–70,099 are in chunk 1.
  const part = await calls(async () => read(await storage.get(key, { start: 70_000, end: 70_099 })));
  expect(part.calls).toEqual(['stat', `get ${16 + 65_552}-${16 + 2 * 65_552 - 1}`, 'stat answered']);
  expect(part.result.equals(audio.subarray(70_000, 70_100))).toBe(true);
});

test('an object changed underneath after its header was learned: longer, shorter or gone, reads follow what is there', async () => {
  const key = await storedEncrypted();
  const other = new EncryptingStorage(new LocalDiskStorage(dir), {
    encrypts: async () => true,
    dataKey: (id) => ring.dataKey(database.db, id),
  });
  await read(await storage.get(key, { start: 0, end: 99 }));
  const longer = randomBytes(audio.length * 2);
  await other.put(key, Readable.from([longer]), { contentType: 'audio/wav' });
  const past = { start: audio.length + 10, end: audio.length + 109 };
  expect((await read(await storage.get(key, past))).equals(longer.subarray(past.start, past.end + 1))).toBe(true);
  const shorter = randomBytes(1000);
  await other.put(key, Readable.from([shorter]), { contentType: 'audio/wav' });
  // The known header's version is gone: the stat made beside the read is used, not made again.
  const refused = await calls(() =>
    storage.get(key, past).then(
      () => null,
      (error: unknown) => error,
    ),
  );
  expect(refused.result).toBeInstanceOf(RangeError);
  expect(refused.calls.filter((call) => call === 'stat')).toEqual(['stat']);
  expect((await read(await storage.get(key, { start: 900, end: 5000 }))).equals(shorter.subarray(900))).toBe(true);
  await other.delete(key);
  await expect(storage.get(key, { start: 0, end: 99 })).rejects.toThrow(ObjectNotFoundError);
});

test('a company whose key was destroyed: an encrypted copy put back is still recognised, and refused', async () => {
  const key = await storedEncrypted();
  const company = key.split('/')[0]!;
  const backup = await read(await counting.get(key));
  await database.db.transaction((tx) => ring.destroy(tx, company, () => undefined));
  expect(
    await database.query('select company_id from keys_test.company_keys where company_id = $1', [company]),
  ).toEqual([]);
  expect(await ring.mayHaveEncrypted(database.db, company)).toBe(true);
  await counting.put(key, Readable.from([backup]), { contentType: 'audio/wav' });
  await expect(storage.get(key)).rejects.toThrow(KeyUnavailableError);
});

test('encrypting an object in place: a plain one is sealed once, an encrypted one is left alone, a missing one is told', async () => {
  const company = randomUUID();
  const plainKey = `${company}/before.wav`;
  const tinyKey = `${company}/tiny.wav`;
  await storage.put(plainKey, Readable.from([audio]), { contentType: 'audio/wav' });
  await storage.put(tinyKey, Readable.from([Buffer.from('RIFF')]), { contentType: 'audio/wav' });
  await turnOn(company);
  expect(await storage.encryptInPlace(plainKey)).toBe('encrypted');
  expect(await storage.encryptInPlace(tinyKey)).toBe('encrypted');
  const sealed = await read(await counting.get(plainKey));
  expect(await storage.isEncrypted(plainKey)).toBe(true);
  // Asked again (a pass run twice, or an object written encrypted since it was listed): unchanged.
  expect(await storage.encryptInPlace(plainKey)).toBe('already');
  expect((await read(await counting.get(plainKey))).equals(sealed)).toBe(true);
  expect((await read(await storage.get(plainKey))).equals(audio)).toBe(true);
  expect((await read(await storage.get(tinyKey))).toString()).toBe('RIFF');
  expect((await storage.stat(plainKey))?.contentType).toBe('audio/wav');
  expect(await storage.encryptInPlace(`${company}/gone.wav`)).toBe('missing');
});
