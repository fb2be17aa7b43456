import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectOptions } from 'fastify';
import type { AuditPage } from '@earshot/contracts';
import { CSRF_HEADER } from '@earshot/kit';
import { createThrowawayDatabase, multipart } from '@earshot/kit/testing';
import { createAllInOne, type AllInOne } from '@earshot/gateway';
import { runBackupCommand } from './main';
import { listFiles } from './manifest';

// The restore drill: an Earshot with companies (one encrypting its data), a user, real recordings
// transcribed, a chat, a task and its audit trail is backed up while it runs, restored into an empty
// data directory (on the postgres project: an empty database too), started again and compared
// through the API. The embedded database when DATABASE_URL is unset, PostgreSQL when it is set.
const ADMIN_EMAIL = 'root@backup-drill.test';
const ADMIN_PASSWORD = 'backup-drill-password-1';
const MASTER_KEY = randomBytes(32).toString('hex');
const serverUrl = process.env.EARSHOT_TEST_DB === 'postgres' ? process.env.DATABASE_URL : undefined;

const cleanups: (() => Promise<void> | void)[] = [];
/** The Earshot running now (the source, then the restored one), closed before its database is dropped. */
let running: AllInOne | null = null;
afterAll(async () => {
  await running?.close();
  for (const cleanup of cleanups.reverse()) await cleanup();
}, 300_000);

const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `earshot-${name}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

/** An empty database on the test server, dropped after the suite. */
async function emptyDatabase(url: string): Promise<string> {
  const throwaway = await createThrowawayDatabase(url, 'earshot_drill');
  cleanups.push(() => throwaway.drop());
  return throwaway.url;
}

async function start(dataDir: string, databaseUrl: string | undefined): Promise<AllInOne> {
  const earshot = await createAllInOne({
    env: {
      SEED_DEMO: 'false',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      WEB_DIST: dataDir,
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      OUTBOX_POLL_MS: '50',
      ENCRYPTION_MASTER_KEY: MASTER_KEY,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
  });
  return earshot;
}

function spokenWav(text: string): Buffer {
  const dir = tempDir('drill-wav');
  execFileSync('espeak-ng', ['-w', join(dir, 'call.wav'), text]);
  return readFileSync(join(dir, 'call.wav'));
}

const run = async (command: 'backup' | 'restore', args: string[], env: Record<string, string | undefined>) => {
  const lines: string[] = [];
  const code = await runBackupCommand(command, args, { env, print: (line) => lines.push(line) });
  return { code, output: lines.join('\n') };
};

type Json = Record<string, unknown> & { _id: string };

/** Calls the API of `earshot` as `token`, expecting a 2xx answer. */
async function api(earshot: AllInOne, token: string, options: InjectOptions): Promise<unknown> {
  const response = await earshot.app.inject({
    ...options,
    headers: { authorization: `Bearer ${token}`, [CSRF_HEADER]: 'XMLHttpRequest', ...(options.headers ?? {}) },
  });
  if (response.statusCode >= 300)
    throw new Error(`${options.method} ${options.url}: ${response.statusCode} ${response.body}`);
  return response.headers['content-type']?.toString().startsWith('application/json')
    ? response.json()
    : response.rawPayload;
}

interface Seeded {
  hostToken: string;
  companies: { id: string; memberToken: string; fileId: string; audio: Buffer }[];
}

async function seed(earshot: AllInOne): Promise<Seeded> {
  const login = await earshot.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  });
  expect(login.statusCode).toBe(200);
  const hostId = (login.json() as { user: { _id: string } }).user._id;
  const hostToken = await earshot.signer.sign({
    userId: hostId,
    companyId: null,
    role: 'HOST_ADMIN',
    email: ADMIN_EMAIL,
  });
  const companies: Seeded['companies'] = [];
  for (const [domain, encryption] of [
    ['plain-co', false],
    ['sealed-co', true],
  ] as const) {
    const company = (await api(earshot, hostToken, {
      method: 'POST',
      url: '/api/companies',
      payload: { name: `Drill ${domain}`, code: domain.toUpperCase(), domain, maxUsers: 5 },
    })) as Json;
    await earshot.settle();
    if (encryption)
      await api(earshot, hostToken, {
        method: 'PUT',
        url: `/api/companies/${company._id}/policies`,
        payload: {
          redaction: 'off',
          keepOriginal: false,
          encryption: true,
          retention: { recordingsDays: null, chatsDays: null, auditDays: null },
        },
      });
    const email = `ann@${domain}.test`;
    const user = (await api(earshot, hostToken, {
      method: 'POST',
      url: '/api/users/register',
      payload: {
        firstName: 'Ann',
        lastName: 'Drill',
        email,
        password: 'ann-password-123',
        role: 'ADMIN',
        companyId: company._id,
      },
    })) as Json;
    await earshot.settle();
    const memberToken = await earshot.signer.sign({ userId: user._id, companyId: company._id, role: 'ADMIN', email });
    const audio = spokenWav(`hello from ${domain.replace('-', ' ')}, one two three`);
    const file = (await api(earshot, memberToken, {
      method: 'POST',
      url: '/api/files/upload',
      ...multipart({}, { name: 'call.wav', type: 'audio/wav', data: audio }),
    })) as Json;
    await api(earshot, memberToken, {
      method: 'POST',
      url: '/api/chat/conversations',
      payload: { title: `About ${domain}` },
    });
    await api(earshot, memberToken, { method: 'POST', url: '/api/tasks', payload: { title: `Call ${domain} back` } });
    companies.push({ id: company._id, memberToken, fileId: file._id, audio });
  }
  // Every recording transcribed by the in-process worker before the backup is taken.
  for (const company of companies) {
    for (;;) {
      await earshot.settle();
      const [job] = (await api(earshot, company.memberToken, {
        method: 'GET',
        url: `/api/transcripts/status?fileIds=${company.fileId}`,
      })) as { status: string }[];
      if (job?.status === 'failed') throw new Error(`transcription of ${company.fileId} failed`);
      if (job?.status === 'completed') break;
      // Polls the condition; the worker's pace is the machine's, so no deadline but the test's own.
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return { hostToken, companies };
}

/** What the API shows of everything seeded: compared before the backup and after the restore. */
async function observe(earshot: AllInOne, seeded: Seeded) {
  const get = (token: string, url: string) => api(earshot, token, { method: 'GET', url });
  const perCompany = [];
  for (const company of seeded.companies) {
    const file = (await get(company.memberToken, `/api/files/${company.fileId}`)) as Json & { path: string };
    perCompany.push({
      users: await get(seeded.hostToken, `/api/users?companyId=${company.id}`),
      files: await get(company.memberToken, '/api/files'),
      recording: (await get(company.memberToken, `/api/uploads/${file.path}`)) as Buffer,
      transcript: await get(company.memberToken, `/api/transcripts/file/${company.fileId}`),
      conversations: await get(company.memberToken, '/api/chat/conversations'),
      tasks: await get(company.memberToken, '/api/tasks'),
      audit: await get(seeded.hostToken, `/api/audit?companyId=${company.id}&pageSize=200`),
      chain: await get(seeded.hostToken, `/api/audit/verify?companyId=${company.id}`),
    });
  }
  return {
    companies: await get(seeded.hostToken, '/api/companies'),
    platformChain: await get(seeded.hostToken, '/api/audit/verify'),
    perCompany,
  };
}

let source: AllInOne;
let sourceDir: string;
let sourceUrl: string | undefined;
let seeded: Seeded;
let before: Awaited<ReturnType<typeof observe>>;
let backupDir: string;

beforeAll(async () => {
  sourceDir = tempDir('drill-source');
  sourceUrl = serverUrl ? await emptyDatabase(serverUrl) : undefined;
  source = await start(sourceDir, sourceUrl);
  running = source;
  seeded = await seed(source);
  before = await observe(source, seeded);
  backupDir = join(tempDir('drill-backups'), 'nightly');
}, 600_000);

test('a backup taken while Earshot runs lists every file with its SHA-256, the schema versions and the time, and holds no master key', async () => {
  const began = Date.now();
  const { code, output } = await run('backup', ['--to', backupDir], { DATA_DIR: sourceDir, DATABASE_URL: sourceUrl });
  expect({ code, output }).toMatchObject({ code: 0 });
  const manifest = JSON.parse(readFileSync(join(backupDir, 'manifest.json'), 'utf8')) as {
    createdAt: string;
    database: { kind: string };
    schemaVersions: Record<string, string[]>;
    files: { path: string; size: number; sha256: string }[];
  };
  expect(manifest.database.kind).toBe(sourceUrl ? 'postgres' : 'pglite');
  // The time the backup was taken: during this run (whole seconds may round down).
  expect(Date.parse(manifest.createdAt)).toBeGreaterThanOrEqual(began - 1000);
  expect(Date.parse(manifest.createdAt)).toBeLessThanOrEqual(Date.now());
  for (const schema of ['auth', 'tenant', 'file', 'transcription', 'chat', 'tasks', 'audit'])
    expect(manifest.schemaVersions[schema]?.length).toBeGreaterThan(0);
  expect(manifest.files.map((f) => f.path).sort()).toEqual(await listFiles(backupDir, (p) => p === 'manifest.json'));
  expect(manifest.files.every((f) => /^[0-9a-f]{64}$/.test(f.sha256))).toBe(true);

  // The plain company's recording is in the backup as uploaded; the encrypting company's is not.
  const [plain, sealed] = seeded.companies;
  const objects = manifest.files.filter((f) => f.path.startsWith('data/objects/') && !f.path.includes('/.meta/'));
  const bytesOf = (prefix: string) =>
    objects
      .filter((f) => f.path.startsWith(`data/objects/${prefix}/`))
      .map((f) => readFileSync(join(backupDir, f.path)));
  expect(bytesOf(plain!.id).some((bytes) => bytes.equals(plain!.audio))).toBe(true);
  const sealedObjects = bytesOf(sealed!.id);
  expect(sealedObjects.length).toBeGreaterThan(0);
  const probe = sealed!.audio.subarray(1000, 1064);
  for (const bytes of sealedObjects) expect(bytes.includes(probe)).toBe(false);

  // The master key is in no file of the backup, as text or as bytes.
  const key = Buffer.from(MASTER_KEY, 'hex');
  for (const file of manifest.files) {
    const bytes = readFileSync(join(backupDir, file.path));
    expect({ file: file.path, text: bytes.includes(MASTER_KEY), raw: bytes.includes(key) }).toEqual({
      file: file.path,
      text: false,
      raw: false,
    });
  }
  expect((await run('backup', ['verify', backupDir], {})).code).toBe(0);
}, 300_000);

test('a restore into a non-empty target is refused with the reason, and writes nothing', async () => {
  const refused = await run('restore', ['--from', backupDir], { DATA_DIR: sourceDir, DATABASE_URL: sourceUrl });
  expect(refused.code).toBe(1);
  expect(refused.output).toContain(`DATA_DIR ${sourceDir} is not empty`);
  if (sourceUrl) {
    const emptyDir = tempDir('drill-empty');
    const intoUsed = await run('restore', ['--from', backupDir], { DATA_DIR: emptyDir, DATABASE_URL: sourceUrl });
    expect(intoUsed.code).toBe(1);
    expect(intoUsed.output).toMatch(/The database at DATABASE_URL is not empty \(it holds tables in .*auth/);
    expect(await listFiles(emptyDir)).toEqual([]);
  } else {
    const intoPostgres = await run('restore', ['--from', backupDir], {
      DATA_DIR: tempDir('drill-empty'),
      DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none',
    });
    expect(intoPostgres.code).toBe(1);
    expect(intoPostgres.output).toContain('This backup holds the embedded database: unset DATABASE_URL');
  }
  expect((await run('backup', ['--to', backupDir], { DATA_DIR: sourceDir, DATABASE_URL: sourceUrl })).output).toContain(
    'is not empty',
  );
  // The embedded database is the running process's alone: a second one on its DATA_DIR refuses to start.
  if (!sourceUrl)
    await expect(start(sourceDir, undefined)).rejects.toThrow(
      `Another Earshot process holds the data directory ${sourceDir}`,
    );
}, 300_000);

test('restored into an empty data directory (and database), Earshot starts with everything, byte for byte, and its audit chains verify', async () => {
  await source.close();
  running = null;
  const restoredDir = join(tempDir('drill-restored'), 'data');
  const restoredUrl = serverUrl ? await emptyDatabase(serverUrl) : undefined;
  const { code, output } = await run('restore', ['--from', backupDir], {
    DATA_DIR: restoredDir,
    DATABASE_URL: restoredUrl,
  });
  expect({ code, output }).toMatchObject({ code: 0 });

  const restored = await start(restoredDir, restoredUrl);
  running = restored;
  const after = await observe(restored, seeded);
  // Everything but the audit pages is as it was. The audit log keeps every entry it had, as it
  // was; an encrypting company's background pass (on a timer, in both systems) may add progress
  // entries of its own after the snapshot, and nothing else may be new.
  const withoutAudit = ({ platformChain: _platform, ...seen }: typeof before) => ({
    ...seen,
    perCompany: seen.perCompany.map(({ audit: _audit, chain: _chain, ...rest }) => rest),
  });
  expect(withoutAudit(after)).toEqual(withoutAudit(before));
  for (const [index, company] of after.perCompany.entries()) {
    const chainBefore = before.perCompany[index]!.chain as { entries: number };
    expect((company.chain as { entries: number }).entries).toBeGreaterThanOrEqual(chainBefore.entries);
    const had = (before.perCompany[index]!.audit as AuditPage).items;
    const has = (company.audit as AuditPage).items;
    expect(has).toEqual(expect.arrayContaining(had));
    const added = has.filter((entry) => !had.some((old) => old._id === entry._id)).map((entry) => entry.type);
    expect(added.filter((type) => type !== 'company.encryption_progressed')).toEqual([]);
  }
  for (const [index, company] of seeded.companies.entries()) {
    expect(after.perCompany[index]!.recording.equals(company.audio)).toBe(true);
    expect(after.perCompany[index]!.chain).toMatchObject({ ok: true });
    const transcript = after.perCompany[index]!.transcript as {
      status: string;
      metadata: { speakerSegments: unknown[] };
    };
    expect(transcript.status).toBe('completed');
    expect(transcript.metadata.speakerSegments.length).toBeGreaterThan(0);
  }
  expect(after.platformChain).toMatchObject({ ok: true });
  expect((after.platformChain as { entries: number }).entries).toBeGreaterThanOrEqual(
    (before.platformChain as { entries: number }).entries,
  );
}, 600_000);

test('verify names an altered, a missing and an extra file, and exits non-zero', async () => {
  const manifest = JSON.parse(readFileSync(join(backupDir, 'manifest.json'), 'utf8')) as { files: { path: string }[] };
  const [altered, missing] = manifest.files.filter((f) => f.path.startsWith('data/')).map((f) => f.path);
  appendFileSync(join(backupDir, altered!), 'x');
  let result = await run('backup', ['verify', backupDir], {});
  expect(result.code).toBe(1);
  expect(result.output).toContain(`altered: ${altered}`);
  expect(result.output.split('\n').filter((line) => /^(altered|missing|extra):/.test(line))).toHaveLength(1);

  unlinkSync(join(backupDir, missing!));
  writeFileSync(join(backupDir, 'data', 'stray.bin'), 'stray');
  result = await run('backup', ['verify', backupDir], {});
  expect(result.output).toContain(`missing: ${missing}`);
  expect(result.output).toContain('extra: data/stray.bin');
  // And a restore from it is refused before anything is written.
  const target = tempDir('drill-after-tamper');
  const refused = await run('restore', ['--from', backupDir], { DATA_DIR: target });
  expect(refused.code).toBe(1);
  expect(refused.output).toContain(`altered: ${altered}`);
  expect(await listFiles(target)).toEqual([]);
}, 300_000);
