import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { PRIVACY_STACK } from './privacy-stack';
import { filesUnder, uploadRequest, wavHeader } from '../../../services/file/test/helpers';
import { createStorage, type StorageConfig } from '@earshot/kit';
import { EXPORT_KEPT_DAYS, expireExports } from '../../../services/auth/src/services/privacy';

// A person's data: every service that holds it in one stack, the export answered by
// each of them through events and assembled by this service.
let stack: TestStack;
let host: string;
const PASSWORD = 'correct horse battery';

interface Person {
  id: string;
  token: string;
  fileId: string;
  audio: Buffer;
  conversationId: string;
  taskId: string;
}
interface Company {
  id: string;
  admin: string;
  people: Record<string, Person>;
}
const a: Company = { id: '', admin: '', people: {} };
const b: Company = { id: '', admin: '', people: {} };

/** A short WAV whose samples are the person's own byte, so whose audio landed in a ZIP is plain. */
const audioOf = (byte: number) => Buffer.concat([wavHeader(3_200), Buffer.alloc(3_200, byte)]);

async function person(company: Company, name: string, byte: number): Promise<void> {
  const registered = await stack.as(company.admin, {
    method: 'POST',
    url: '/api/users/register',
    payload: {
      firstName: name,
      lastName: 'Person',
      email: `${name.toLowerCase()}@${company.id.slice(0, 8)}.test`,
      password: PASSWORD,
      role: 'USER',
    },
  });
  expect(registered.statusCode).toBe(201);
  const id = registered.json()._id as string;
  const token = await stack.tokenFor('USER', company.id, id);
  const audio = audioOf(byte);
  const upload = await stack.as(token, uploadRequest(audio, `${name.toLowerCase()}-call.wav`));
  expect(upload.statusCode).toBe(201);
  const conversation = await stack.as(token, {
    method: 'POST',
    url: '/api/chat/conversations',
    payload: { title: `${name}'s private question` },
  });
  expect(conversation.statusCode).toBe(201);
  // An analysis run the person asked for, written as the analysis queue would (no AI provider needed here).
  await stack.database.query(
    "insert into prompt.analysis_runs (company_id, file_id, prompt_id, prompt_version, status, requested_by, result) values ($1, $2, $3, 1, 'completed', $4, $5)",
    [
      company.id,
      upload.json()._id,
      crypto.randomUUID(),
      id,
      JSON.stringify({ format: 'text', text: `${name}'s call went well` }),
    ],
  );
  const task = await stack.as(token, { method: 'POST', url: '/api/tasks', payload: { title: `${name}'s follow-up` } });
  expect(task.statusCode).toBe(201);
  company.people[name] = {
    id,
    token,
    fileId: upload.json()._id,
    audio,
    conversationId: conversation.json()._id,
    taskId: task.json()._id,
  };
}

beforeAll(async () => {
  stack = await createTestStack(PRIVACY_STACK, {
    TRANSCRIPTION_WORKER: 'false',
    // Company A's recordings are encrypted at rest: its people's ZIPs must still hold plain audio.
    ENCRYPTION_MASTER_KEY: randomBytes(32).toString('hex'),
    ADMIN_EMAIL: 'root@platform.test',
    ADMIN_PASSWORD: 'first-start-password',
  });
  host = await stack.tokenFor('HOST_ADMIN', null);
  for (const [company, code] of [
    [a, 'PRV-A'],
    [b, 'PRV-B'],
  ] as const) {
    const res = await stack.as(host, {
      method: 'POST',
      url: '/api/companies',
      payload: { name: code, code, domain: code.toLowerCase() },
    });
    expect(res.statusCode).toBe(201);
    company.id = res.json()._id;
    company.admin = await stack.tokenFor('ADMIN', company.id);
  }
  const policies = {
    redaction: 'off',
    keepOriginal: false,
    encryption: true,
    retention: { recordingsDays: null, chatsDays: null, auditDays: null },
  };
  expect(
    (await stack.as(host, { method: 'PUT', url: `/api/companies/${a.id}/policies`, payload: policies })).statusCode,
  ).toBe(200);
  await stack.settle();
  await person(a, 'Ann', 0x11);
  await person(a, 'Bob', 0x22);
  await person(b, 'Carl', 0x33);
  await stack.settle();
}, 120_000);
afterAll(async () => stack.close());

const exportOf = (token: string, payload: Record<string, unknown>) =>
  stack.as(token, { method: 'POST', url: '/api/privacy/export', payload });
const jobOf = (token: string, jobId: string) => stack.as(token, { method: 'GET', url: `/api/privacy/jobs/${jobId}` });

/** Asks for an export as `token`, lets every service answer, and returns the job and the unzipped ZIP. */
async function exported(token: string, userId: string) {
  const accepted = await exportOf(token, { userId });
  expect(accepted.statusCode).toBe(202);
  const { jobId } = accepted.json() as { jobId: string };
  await stack.settle();
  const job = await jobOf(token, jobId);
  expect(job.statusCode).toBe(200);
  const download = await stack.as(token, { method: 'GET', url: job.json().download });
  expect(download.statusCode).toBe(200);
  expect(download.headers['content-type']).toBe('application/zip');
  expect(download.headers['content-disposition']).toBe(`attachment; filename="earshot-user-${userId}.zip"`);
  return { jobId, job: job.json(), zip: unzipSync(new Uint8Array(download.rawPayload)) };
}

describe('export of a user', () => {
  test("the ZIP holds the person's profile, sessions, recordings with their audio and conversations, and nothing of anyone else", async () => {
    const ann = a.people.Ann!;
    const { jobId, job, zip } = await exported(a.admin, ann.id);
    expect(job).toMatchObject({
      jobId,
      kind: 'export',
      subject: { kind: 'user', id: ann.id },
      status: 'done',
      pendingServices: [],
      download: `/api/privacy/jobs/${jobId}/download`,
    });
    expect(job.parts).toEqual([
      { service: 'audit', counts: { entries: expect.any(Number) } },
      { service: 'auth', counts: { profile: 1, sessions: 0 } },
      { service: 'chat', counts: { conversations: 1, messages: 0, feedback: 0 } },
      { service: 'file', counts: { recordings: 1 } },
      { service: 'messaging', counts: { notifications: 0, mail: 0 } },
      { service: 'prompt', counts: { runs: 1 } },
      { service: 'tasks', counts: { tasks: 1 } },
      { service: 'tenant', counts: {} },
      { service: 'transcription', counts: { transcripts: 1 } },
      { service: 'webhooks', counts: { deliveries: 0 } },
    ]);
    expect(Object.keys(zip).sort()).toEqual([
      `audio/${ann.fileId}.wav`,
      'audit.json',
      'auth.json',
      'chat.json',
      'file.json',
      'messaging.json',
      'prompt.json',
      'tasks.json',
      'tenant.json',
      'transcription.json',
      'webhooks.json',
    ]);
    expect(JSON.parse(strFromU8(zip['tasks.json']!)).tasks).toEqual([
      expect.objectContaining({ _id: ann.taskId, title: "Ann's follow-up", createdBy: ann.id }),
    ]);
    expect(JSON.parse(strFromU8(zip['prompt.json']!)).runs).toEqual([
      expect.objectContaining({
        fileId: ann.fileId,
        status: 'completed',
        result: { format: 'text', text: "Ann's call went well" },
      }),
    ]);

    const auth = JSON.parse(strFromU8(zip['auth.json']!));
    expect(auth.profile).toMatchObject({ id: ann.id, companyId: a.id, firstName: 'Ann', role: 'USER' });
    // The account, never its secrets.
    expect(strFromU8(zip['auth.json']!)).not.toMatch(/password|secret|\$argon2/i);
    const file = JSON.parse(strFromU8(zip['file.json']!));
    expect(file.recordings).toEqual([
      expect.objectContaining({
        id: ann.fileId,
        originalName: 'ann-call.wav',
        uploadedBy: ann.id,
        audio: `audio/${ann.fileId}.wav`,
      }),
    ]);
    expect(Buffer.from(zip[`audio/${ann.fileId}.wav`]!).equals(ann.audio)).toBe(true);
    // …although what the file service stores of it is encrypted (no WAV header on disk).
    const [stored] = await stack.database.query<{ storage_key: string }>(
      'select storage_key from file.files where id = $1',
      [ann.fileId],
    );
    const onDisk = readFileSync(join(stack.dataDir, 'objects', stored!.storage_key));
    expect(onDisk.subarray(0, 4).toString('latin1')).not.toBe('RIFF');
    const transcription = JSON.parse(strFromU8(zip['transcription.json']!));
    expect(transcription.transcripts).toEqual([
      expect.objectContaining({ fileId: ann.fileId, uploadedBy: ann.id, originalName: 'ann-call.wav' }),
    ]);
    // The audit entries about her: her account made (its target), her upload and her conversation (her acts).
    const audit = JSON.parse(strFromU8(zip['audit.json']!));
    expect(audit.entries.length).toBe(job.parts[0].counts.entries);
    const about = audit.entries.map((entry: { type: string; targetId: string }) => `${entry.type} ${entry.targetId}`);
    expect(about).toEqual(
      expect.arrayContaining([
        `user.created ${ann.id}`,
        `file.uploaded ${ann.fileId}`,
        `conversation.created ${ann.conversationId}`,
      ]),
    );
    for (const entry of audit.entries as { actor: { id: string }; targetId: string }[])
      expect([entry.actor.id, entry.targetId]).toContain(ann.id);
    const chat = JSON.parse(strFromU8(zip['chat.json']!));
    expect(chat.conversations).toEqual([
      expect.objectContaining({ id: ann.conversationId, title: "Ann's private question", messages: [] }),
    ]);

    // Bob (same company) and Carl (another company) are nowhere in it.
    const everything = Object.values(zip)
      .map((bytes) => Buffer.from(bytes).toString('latin1'))
      .join('\n');
    for (const other of [a.people.Bob!, b.people.Carl!]) {
      for (const trace of [other.id, other.fileId, other.conversationId, other.taskId])
        expect(everything).not.toContain(trace);
    }
    expect(everything).not.toMatch(/Bob|Carl/);
    // The pages' sort keys are how the lists were read, not the person's data.
    expect(everything).not.toContain('sortKey');
    expect(everything).not.toContain(String.fromCharCode(0x22).repeat(64));

    // The parts were assembled into the ZIP and then removed: the person's data is stored once more, not twice.
    expect(filesUnder(join(stack.dataDir, 'objects', 'privacy', jobId))).toEqual(['export.zip']);
  });

  test("a user exports their own account; HOST_ADMIN any company's person", async () => {
    const bob = a.people.Bob!;
    const own = await exported(bob.token, bob.id);
    expect(own.job.status).toBe('done');
    expect(Object.keys(own.zip)).toContain(`audio/${bob.fileId}.wav`);
    const carl = b.people.Carl!;
    const byHost = await exported(host, carl.id);
    expect(JSON.parse(strFromU8(byHost.zip['auth.json']!)).profile).toMatchObject({ id: carl.id, companyId: b.id });
    expect(Buffer.from(byHost.zip[`audio/${carl.fileId}.wav`]!).equals(carl.audio)).toBe(true);
  });
});

describe('the ZIP does not stay', () => {
  test(`a ZIP goes ${EXPORT_KEPT_DAYS} days after its export finished, at once when the company is deleted; the job stays without a download`, async () => {
    const { jobId: recent } = await exported(a.admin, a.people.Bob!.id);
    const { jobId: old } = await exported(a.admin, a.people.Ann!.id);
    const { jobId: ofDeleted } = await exported(b.admin, b.people.Carl!.id);
    // Backdated in SQL: Ann's export finished a day more than it is kept; Carl's company is gone.
    await stack.database.query(
      `update auth.privacy_jobs set finished_at = now() - interval '${EXPORT_KEPT_DAYS + 1} days' where id = $1`,
      [old],
    );
    await stack.database.query('update auth.companies set deleted_at = now() where id = $1', [b.id]);
    const storage = createStorage({ STORAGE_DRIVER: 'local', DATA_DIR: stack.dataDir } as StorageConfig);
    try {
      expect(await expireExports(stack.database.db, storage, new Date())).toBeGreaterThanOrEqual(2);
    } finally {
      await stack.database.query('update auth.companies set deleted_at = null where id = $1', [b.id]);
    }
    const zipOf = (jobId: string) => filesUnder(join(stack.dataDir, 'objects', 'privacy', jobId));
    expect(zipOf(old)).toEqual([]);
    expect(zipOf(ofDeleted)).toEqual([]);
    expect(zipOf(recent)).toEqual(['export.zip']);
    const gone = await jobOf(a.admin, old);
    expect(gone.json()).toMatchObject({ status: 'done', download: null });
    expect((await stack.as(a.admin, { method: 'GET', url: `/api/privacy/jobs/${old}/download` })).statusCode).toBe(404);
    expect((await jobOf(a.admin, recent)).json().download).toBe(`/api/privacy/jobs/${recent}/download`);
  });
});

describe('who may ask, and who may see a job', () => {
  test("another company's person, or another person of one's own company for a non-admin, is 404; so is their job", async () => {
    const ann = a.people.Ann!;
    const carl = b.people.Carl!;
    expect((await exportOf(a.admin, { userId: carl.id })).statusCode).toBe(404);
    expect((await exportOf(ann.token, { userId: a.people.Bob!.id })).statusCode).toBe(404);
    expect((await exportOf(a.admin, { userId: crypto.randomUUID() })).statusCode).toBe(404);

    const accepted = await exportOf(a.admin, { userId: ann.id });
    expect(accepted.statusCode).toBe(202);
    const { jobId } = accepted.json();
    await stack.settle();
    expect((await jobOf(b.admin, jobId)).statusCode).toBe(404);
    expect((await jobOf(a.people.Bob!.token, jobId)).statusCode).toBe(404);
    expect((await stack.as(b.admin, { method: 'GET', url: `/api/privacy/jobs/${jobId}/download` })).statusCode).toBe(
      404,
    );
    // The person themself and HOST_ADMIN see it.
    expect((await jobOf(ann.token, jobId)).json().status).toBe('done');
    expect((await jobOf(host, jobId)).statusCode).toBe(200);
    expect((await jobOf(a.admin, crypto.randomUUID())).statusCode).toBe(404);
  });
});

describe('validation', () => {
  test('exactly one of userId and clientId, each a UUID, nothing else: the field named', async () => {
    const ann = a.people.Ann!;
    const fieldOf = (res: { statusCode: number; json(): { details?: { field: string }[] } }) => {
      expect(res.statusCode).toBe(400);
      return res.json().details?.map((d) => d.field);
    };
    expect(fieldOf(await exportOf(a.admin, {}))).toContain('body.userId');
    expect(fieldOf(await exportOf(a.admin, { userId: ann.id, clientId: crypto.randomUUID() }))).toContain(
      'body.userId',
    );
    expect(fieldOf(await exportOf(a.admin, { userId: 'not-a-uuid' }))).toContain('body.userId');
    expect(fieldOf(await exportOf(a.admin, { userId: `${ann.id}\u0000` }))).toContain('body.userId');
    expect((await exportOf(a.admin, { userId: ann.id, extra: true })).statusCode).toBe(400);
    expect((await jobOf(a.admin, 'not-a-uuid')).statusCode).toBe(400);
  });
});

describe('export of a client contact', () => {
  test('the ZIP holds the client, the calls linked to it with their audio and transcripts, and nothing else', async () => {
    const ann = a.people.Ann!;
    const created = await stack.as(a.admin, {
      method: 'POST',
      url: '/api/clients',
      payload: { name: 'Dora Client', email: 'dora@client.test' },
    });
    expect(created.statusCode).toBe(201);
    const clientId = created.json()._id as string;
    // Another client of the same company, with nothing linked, and the link of Ann's call to Dora.
    expect(
      (await stack.as(a.admin, { method: 'POST', url: '/api/clients', payload: { name: 'Eve Other' } })).statusCode,
    ).toBe(201);
    await stack.settle();
    const transcriptId = (await stack.as(a.admin, { method: 'GET', url: `/api/transcripts/file/${ann.fileId}` })).json()
      ._id as string;
    expect(
      (
        await stack.as(a.admin, {
          method: 'PUT',
          url: '/api/transcripts/link-client',
          payload: { transcriptId, clientId },
        })
      ).statusCode,
    ).toBe(200);
    await stack.settle();

    // Only the client's company's ADMIN, or HOST_ADMIN, may ask: a colleague and another company get 404.
    expect((await exportOf(ann.token, { clientId })).statusCode).toBe(404);
    expect((await exportOf(b.admin, { clientId })).statusCode).toBe(404);
    expect((await exportOf(a.admin, { clientId: crypto.randomUUID() })).statusCode).toBe(404);

    const accepted = await exportOf(a.admin, { clientId });
    expect(accepted.statusCode).toBe(202);
    const { jobId } = accepted.json();
    await stack.settle();
    const job = (await jobOf(a.admin, jobId)).json();
    expect(job).toMatchObject({ subject: { kind: 'client', id: clientId }, status: 'done', pendingServices: [] });
    expect((await jobOf(ann.token, jobId)).statusCode).toBe(404);
    const download = await stack.as(a.admin, { method: 'GET', url: job.download });
    const zip = unzipSync(new Uint8Array(download.rawPayload));
    expect(Object.keys(zip).sort()).toEqual([
      `audio/${ann.fileId}.wav`,
      'audit.json',
      'auth.json',
      'chat.json',
      'file.json',
      'messaging.json',
      'prompt.json',
      'tasks.json',
      'tenant.json',
      'transcription.json',
      'webhooks.json',
    ]);
    expect(JSON.parse(strFromU8(zip['tenant.json']!))).toMatchObject({
      client: { id: clientId, name: 'Dora Client', email: 'dora@client.test' },
      calls: [{ fileId: ann.fileId }],
    });
    expect(JSON.parse(strFromU8(zip['file.json']!)).recordings).toEqual([
      expect.objectContaining({ id: ann.fileId, clientId }),
    ]);
    expect(JSON.parse(strFromU8(zip['transcription.json']!)).transcripts).toEqual([
      expect.objectContaining({ fileId: ann.fileId, clientId }),
    ]);
    expect(Buffer.from(zip[`audio/${ann.fileId}.wav`]!).equals(ann.audio)).toBe(true);
    const everything = Object.values(zip)
      .map((bytes) => Buffer.from(bytes).toString('latin1'))
      .join('\n');
    expect(everything).not.toMatch(/Eve Other|Bob|Carl/);
    for (const other of [a.people.Bob!, b.people.Carl!]) expect(everything).not.toContain(other.fileId);
  });
});
