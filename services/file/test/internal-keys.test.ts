import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { SYSTEM_ACTOR } from '@earshot/contracts';
import {
  buildEnvelope,
  buildServiceApp,
  COMPANY_AUDIO_KEY_PATH,
  configSchemaFor,
  createLogger,
  EncryptingStorage,
  INTERNAL_TOKEN_HEADER,
  KeyUnavailableError,
  LocalDiskStorage,
  MasterKeys,
  MemoryBus,
  remoteCompanyKeys,
  TokenVerifier,
  type BaseConfig,
  type Database,
  type RunningServices,
  type ServiceContext,
} from '@earshot/kit';
import { openTestDatabase } from '@earshot/kit/testing';
import { fileService } from '../src';
import type { FileConfig } from '../src/config';
import { encryptionOf } from '../src/services/encryption';

/**
 * Distributed mode: the file service on its own port answers a company's audio key, still wrapped
 * by the master key, to our services only (INTERNAL_API_TOKEN); the transcription service's remote
 * keys unwrap it with the same master key and read what the file service stored encrypted. A
 * destroyed key is no key there either.
 */
const TOKEN = 'internal-token-internal-token-0123456789';
const MASTER = randomBytes(32);
const logger = createLogger('silent', 'test');
const bus = new MemoryBus(logger);
const dataDir = mkdtempSync(join(tmpdir(), 'earshot-file-internal-'));
const ENCRYPTING = randomUUID();
const PLAIN = randomUUID();
const audio = randomBytes(150_000);
let database: Database;
let app: FastifyInstance;
let running: RunningServices;
let ctx: ServiceContext<FileConfig>;
let url: string;

const policies = (encryption: boolean) => ({
  redaction: 'off' as const,
  keepOriginal: false,
  encryption,
  retention: { recordingsDays: null, chatsDays: null, auditDays: null },
});
const keyUrl = (companyId: string) => `${url}${COMPANY_AUDIO_KEY_PATH.replace(':companyId', companyId)}`;

async function read(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  database = await openTestDatabase();
  const config = configSchemaFor([fileService]).parse({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'x'.repeat(40),
    SECRETS_KEY: 'ab'.repeat(32),
    OUTBOX_POLL_MS: '50',
    DATA_DIR: dataDir,
    INTERNAL_API_TOKEN: TOKEN,
    ENCRYPTION_MASTER_KEY: MASTER.toString('hex'),
    // The credit check's way is required to start; this test makes no upload, so it is never asked.
    BILLING_SERVICE_URL: 'http://127.0.0.1:9',
  }) as BaseConfig;
  ({ app, running } = await buildServiceApp(fileService, {
    config,
    database,
    bus,
    logger,
    tokens: new TokenVerifier(900),
  }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  ctx = running.contexts.get('file') as ServiceContext<FileConfig>;
  // The tenant's event turning encryption on, through the ring's own handler.
  const envelope = buildEnvelope({
    type: 'company.policies_changed',
    companyId: ENCRYPTING,
    actor: SYSTEM_ACTOR,
    data: { id: ENCRYPTING, before: policies(false), after: policies(true) },
  } as never);
  await ctx.transact((tx, emit) => encryptionOf(ctx).ring.handlers()[0]!.prepare(envelope).apply(tx, emit));
}, 60_000);
afterAll(async () => {
  await app.close();
  await running.stop();
  await bus.stop();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('the key route is for our services only: no token or a wrong one is a 401, and says nothing', async () => {
  for (const headers of [{}, { [INTERNAL_TOKEN_HEADER]: 'wrong-token-wrong-token-wrong-token-0000' }] as Record<
    string,
    string
  >[]) {
    const res = await fetch(keyUrl(ENCRYPTING), { headers });
    expect(res.status).toBe(401);
    expect(JSON.stringify(await res.json())).not.toContain('mk1');
  }
});

test('an encrypting company: its key still wrapped (never the data key) and the switch; a company that never had one: 404', async () => {
  const res = await fetch(keyUrl(ENCRYPTING), { headers: { [INTERNAL_TOKEN_HEADER]: TOKEN } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { encrypt: boolean; wrappedKey: string; destroyed: boolean };
  expect(body).toEqual({ encrypt: true, wrappedKey: expect.stringMatching(/^mk1:[0-9a-f]{16}:/), destroyed: false });
  const dataKey = (await encryptionOf(ctx).ring.dataKey(ctx.db, ENCRYPTING))!;
  expect(body.wrappedKey).not.toContain(dataKey.toString('base64'));
  expect(new MasterKeys(MASTER).unwrap(ENCRYPTING, body.wrappedKey).equals(dataKey)).toBe(true);
  expect((await fetch(keyUrl(PLAIN), { headers: { [INTERNAL_TOKEN_HEADER]: TOKEN } })).status).toBe(404);
  expect((await fetch(keyUrl('not-a-uuid'), { headers: { [INTERNAL_TOKEN_HEADER]: TOKEN } })).status).toBe(400);
});

test('the remote keys over loopback: a recording the file service stored encrypted reads back; a plain company is read straight through', async () => {
  const keys = remoteCompanyKeys(url, TOKEN, new MasterKeys(MASTER));
  const elsewhere = new EncryptingStorage(new LocalDiskStorage(join(dataDir, 'objects')), keys);
  const key = `${ENCRYPTING}/${randomUUID()}`;
  await encryptionOf(ctx).storage.put(key, Readable.from([audio]), { contentType: 'audio/wav' });
  expect(await encryptionOf(ctx).storage.isEncrypted(key)).toBe(true);
  expect(
    (await read(await elsewhere.get(key, { start: 70_000, end: 140_000 }))).equals(audio.subarray(70_000, 140_001)),
  ).toBe(true);
  expect(await keys.encrypts(ENCRYPTING)).toBe(true);
  expect(await keys.encrypts(PLAIN)).toBe(false);
  expect(await keys.mayHaveEncrypted!(PLAIN)).toBe(false);
  expect(await keys.dataKey(PLAIN)).toBeNull();
  // Another master key cannot open the wrapped key it is given.
  await expect(remoteCompanyKeys(url, TOKEN, new MasterKeys(randomBytes(32))).dataKey(ENCRYPTING)).rejects.toThrow(
    KeyUnavailableError,
  );
  // A wrong token is no key, said as such rather than read as "never had one".
  await expect(
    remoteCompanyKeys(url, 'wrong-token-wrong-token-wrong-token-0000', new MasterKeys(MASTER)).encrypts(ENCRYPTING),
  ).rejects.toThrow(KeyUnavailableError);

  // The company deleted: the route says destroyed, and the recording no longer decrypts elsewhere.
  await ctx.transact((tx, emit) => encryptionOf(ctx).ring.destroy(tx, ENCRYPTING, emit));
  const gone = await fetch(keyUrl(ENCRYPTING), { headers: { [INTERNAL_TOKEN_HEADER]: TOKEN } });
  expect(await gone.json()).toEqual({ encrypt: false, wrappedKey: null, destroyed: true });
  const afterDeletion = new EncryptingStorage(
    new LocalDiskStorage(join(dataDir, 'objects')),
    remoteCompanyKeys(url, TOKEN, new MasterKeys(MASTER)),
  );
  await expect(afterDeletion.get(key)).rejects.toThrow(KeyUnavailableError);
});
