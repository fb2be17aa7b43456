import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildEnvelope,
  CompanyKeyRing,
  ConfigError,
  EncryptingStorage,
  KeyUnavailableError,
  LocalDiskStorage,
  MasterKeys,
  type ServiceContext,
} from '@earshot/kit';
import type { Envelope } from '@earshot/contracts';
import {
  createTestStack,
  serveUnmeteredCredits,
  withoutEncryptionPassTimer,
  type TestStack,
} from '@earshot/kit/testing';
import { fileService } from '../src';
import type { FileConfig } from '../src/config';
import { encryptionOf } from '../src/services/encryption';
import { announceCompany, uploadRequest, wavHeader } from './helpers';
import { runKeysCommand } from '../../../scripts/keys';

// Encryption at rest of recordings, over real HTTP and the real storage on disk: what is
// stored is not readable without the company's key, Range playback still answers the right bytes,
// turning encryption on encrypts what was there, rotation rewraps, deleting the company shreds.

const MASTER = randomBytes(32).toString('hex');
const ACME = randomUUID();
const hostActor = { type: 'user' as const, id: randomUUID(), role: 'HOST_ADMIN' as const, email: 'host@earshot.test' };
const WORD = 'PLAINTEXTMARKER';
// A WAV (header a sniffer accepts) whose samples carry a marker: neither may be found once encrypted.
const samples = Buffer.concat([randomBytes(200_000), Buffer.from(WORD.repeat(40)), randomBytes(150_001)]);
const wav = Buffer.concat([wavHeader(samples.length), samples]);

let stack: TestStack;
let ctx: ServiceContext<FileConfig>;
let admin: string;
const seen: Envelope[] = [];

const objectPath = (key: string) => join(stack.dataDir, 'objects', key);
const policies = (encryption: boolean) => ({
  redaction: 'off' as const,
  keepOriginal: false,
  encryption,
  retention: { recordingsDays: null, chatsDays: null, auditDays: null },
});

async function tenantEvent(type: string, data: Record<string, unknown>) {
  await stack.bus.publish([
    {
      topic: 'earshot.tenant',
      key: ACME,
      envelope: buildEnvelope({ type, companyId: ACME, actor: hostActor, data } as never),
    },
  ]);
  await stack.settle();
}

async function upload(): Promise<{ id: string; path: string }> {
  const res = await stack.as(admin, uploadRequest(wav, 'call.wav'));
  expect(res.statusCode).toBe(201);
  return { id: res.json()._id, path: res.json().path };
}

function assertNoPlaintext(path: string) {
  const raw = readFileSync(objectPath(path));
  expect(raw.includes(Buffer.from('RIFF'))).toBe(false);
  expect(raw.includes(Buffer.from('WAVE'))).toBe(false);
  expect(raw.includes(Buffer.from(WORD))).toBe(false);
}

beforeAll(async () => {
  // The tests run the background pass themselves, between looking at a company before and after it.
  stack = await withoutEncryptionPassTimer(() => createTestStack([fileService], { ENCRYPTION_MASTER_KEY: MASTER }));
  serveUnmeteredCredits(stack.database);
  ctx = stack.running.contexts.get('file') as ServiceContext<FileConfig>;
  await stack.bus.subscribe({
    group: 'encryption-observer',
    topics: ['earshot.keys'],
    handle: async (e) => void seen.push(e),
  });
  await announceCompany(stack, ACME, null);
  admin = await stack.tokenFor('ADMIN', ACME);
}, 60_000);
afterAll(async () => stack.close());

let before: { id: string; path: string };
let after: { id: string; path: string };

test('turning encryption on encrypts new uploads and, in the background, the existing ones; progress reaches done', async () => {
  before = await upload();
  expect(readFileSync(objectPath(before.path)).equals(wav)).toBe(true);
  await tenantEvent('company.policies_changed', { id: ACME, before: policies(false), after: policies(true) });
  expect(await encryptionOf(ctx).progress(ACME)).toEqual({ state: 'running', done: 0, total: 0 });
  after = await upload();
  assertNoPlaintext(after.path);
  await encryptionOf(ctx).encryptExisting();
  await stack.settle();
  assertNoPlaintext(before.path);
  expect(await encryptionOf(ctx).progress(ACME)).toEqual({ state: 'done', done: 2, total: 2 });
  const shown = await stack.as(admin, { method: 'GET', url: `/api/files/encryption/${ACME}` });
  expect(shown.json()).toEqual({ encrypt: true, state: 'done', done: 2, total: 2 });
  expect(
    (
      await stack.as(await stack.tokenFor('ADMIN', randomUUID()), {
        method: 'GET',
        url: `/api/files/encryption/${ACME}`,
      })
    ).statusCode,
  ).toBe(404);
  // Told at the start (how many there are) and at the end.
  expect(seen.filter((e) => e.type === 'company.encryption_progressed').map((e) => e.data)).toEqual([
    { companyId: ACME, service: 'file', done: 0, total: 2, state: 'running' },
    { companyId: ACME, service: 'file', done: 2, total: 2, state: 'done' },
  ]);
});

test('playback and download decrypt: the whole file and Range requests across chunk edges give the plaintext bytes', async () => {
  const CHUNK = 64 * 1024;
  for (const { path } of [before, after]) {
    const whole = await stack.as(admin, { method: 'GET', url: `/api/uploads/${path}` });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(wav)).toBe(true);
    const last = wav.length - 1;
    for (const [start, end] of [
      [0, 43],
      [CHUNK - 2, CHUNK + 1],
      [CHUNK, 3 * CHUNK - 1],
      [200_000, 201_000],
      [last - 10, last],
    ]) {
      const res = await stack.as(admin, {
        method: 'GET',
        url: `/api/uploads/${path}`,
        headers: { range: `bytes=${start}-${end}` },
      });
      expect(res.statusCode).toBe(206);
      expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${wav.length}`);
      expect(res.rawPayload.equals(wav.subarray(start, end! + 1))).toBe(true);
    }
  }
});

test('without a master key the service refuses to start once encrypted data exists', async () => {
  await expect(new CompanyKeyRing('file', 'file', new MasterKeys(null)).assertStartable(ctx.db)).rejects.toThrow(
    ConfigError,
  );
  await expect(new CompanyKeyRing('file', 'file', new MasterKeys(null)).assertStartable(ctx.db)).rejects.toThrow(
    /set ENCRYPTION_MASTER_KEY/,
  );
});

test('master-key rotation rewraps the data key without touching the data, which still decrypts under the new key alone', async () => {
  const rawBefore = readFileSync(objectPath(after.path));
  const next = randomBytes(32);
  const printed: string[] = [];
  const env = {
    ...process.env,
    DATA_DIR: stack.dataDir,
    ENCRYPTION_MASTER_KEY: next.toString('hex'),
    ENCRYPTION_PREVIOUS_MASTER_KEY: MASTER,
  };
  expect(await runKeysCommand(['rotate'], { env, database: stack.database, print: (line) => printed.push(line) })).toBe(
    0,
  );
  expect(printed.join('\n')).toMatch(/^Rewrapped 1 data key\(s\) under master key [0-9a-f]{16}\.$/);
  expect(readFileSync(objectPath(after.path)).equals(rawBefore)).toBe(true);
  const onlyNew = new CompanyKeyRing('file', 'file', new MasterKeys(next));
  const storage = new EncryptingStorage(new LocalDiskStorage(join(stack.dataDir, 'objects')), {
    encrypts: async () => true,
    dataKey: (id) => onlyNew.dataKey(ctx.db, id),
  });
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.get(after.path, { start: 100, end: 70_000 })) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).equals(wav.subarray(100, 70_001))).toBe(true);
  // The old master key alone no longer opens it.
  await expect(
    new CompanyKeyRing('file', 'file', new MasterKeys(Buffer.from(MASTER, 'hex'))).dataKey(ctx.db, ACME),
  ).rejects.toThrow(KeyUnavailableError);
  // Back to the service's own master key, as an operator finishing a rotation would restart with it.
  expect(
    await new CompanyKeyRing('file', 'file', new MasterKeys(Buffer.from(MASTER, 'hex'), [next])).rotate(ctx.db),
  ).toBe(1);
});

test('deleting the company destroys its data key first: a copy of the object kept elsewhere no longer decrypts, and the audit trail has company.key_destroyed', async () => {
  const backup = readFileSync(objectPath(after.path));
  await tenantEvent('company.deleted', {
    id: ACME,
    before: { name: 'Acme', code: 'ACME', domain: 'acme', status: 'active', maxUsers: 10, maxStorage: null },
    after: null,
  });
  const rows = await stack.database.query<{ n: number }>(
    'select count(*)::int as n from file.company_keys where company_id = $1',
    [ACME],
  );
  expect(rows[0]!.n).toBe(0);
  expect(seen.find((e) => e.type === 'company.key_destroyed')?.data).toEqual({
    companyId: ACME,
    service: 'file',
    reason: 'company_deleted',
  });
  // The "backup" of the object, put back where it was: the service cannot decrypt it any more.
  writeFileSync(objectPath(after.path), backup);
  await expect(encryptionOf(ctx).storage.get(after.path)).rejects.toThrow(KeyUnavailableError);
});
