import { PRIVACY_SERVICES, SYSTEM_ACTOR } from '@earshot/contracts';
import { buildEnvelope } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { PRIVACY_STACK } from './privacy-stack';
import { uploadRequest, wavHeader } from '../../../services/file/test/helpers';
import { login } from '../../../services/auth/test/helpers';

// Erasing a person: every service that holds their data in one stack, each removing
// its part through its own deletion path and reporting it to this service's job.
let stack: TestStack;
let host: string;
const PASSWORD = 'correct horse battery';

interface Person {
  id: string;
  email: string;
  token: string;
  fileId: string;
  transcriptId: string;
  conversationId: string;
  madeTaskId: string;
  givenTaskId: string;
}
interface Company {
  id: string;
  admin: string;
  adminId: string;
  people: Record<string, Person>;
}
const a: Company = { id: '', admin: '', adminId: '', people: {} };
const b: Company = { id: '', admin: '', adminId: '', people: {} };

/** A member with one recording, one conversation, one analysis run, a task they made and one given to them. */
async function member(company: Company, name: string): Promise<Person> {
  const email = `${name.toLowerCase()}@${company.id.slice(0, 8)}.erase.test`;
  const registered = await stack.as(company.admin, {
    method: 'POST',
    url: '/api/users/register',
    payload: { firstName: name, lastName: 'Erased', email, password: PASSWORD, role: 'USER' },
  });
  expect(registered.statusCode).toBe(201);
  const id = registered.json()._id as string;
  const token = await stack.tokenFor('USER', company.id, id);
  const upload = await stack.as(
    token,
    uploadRequest(Buffer.concat([wavHeader(1_600), Buffer.alloc(1_600, 7)]), `${name.toLowerCase()}.wav`),
  );
  expect(upload.statusCode).toBe(201);
  const fileId = upload.json()._id as string;
  const conversation = await stack.as(token, {
    method: 'POST',
    url: '/api/chat/conversations',
    payload: { title: `${name}'s question` },
  });
  expect(conversation.statusCode).toBe(201);
  await stack.database.query(
    "insert into prompt.analysis_runs (company_id, file_id, prompt_id, prompt_version, status, requested_by, result) values ($1, $2, $3, 1, 'completed', $4, $5)",
    [company.id, fileId, crypto.randomUUID(), id, JSON.stringify({ format: 'text', text: `${name}'s run` })],
  );
  await stack.settle();
  const made = await stack.as(token, { method: 'POST', url: '/api/tasks', payload: { title: `${name} made this` } });
  const given = await stack.as(company.admin, {
    method: 'POST',
    url: '/api/tasks',
    payload: { title: `For ${name}`, assigneeId: id },
  });
  expect([made.statusCode, given.statusCode]).toEqual([201, 201]);
  const transcript = await stack.as(company.admin, { method: 'GET', url: `/api/transcripts/file/${fileId}` });
  expect(transcript.statusCode).toBe(200);
  const person = {
    id,
    email,
    token,
    fileId,
    transcriptId: transcript.json()._id,
    conversationId: conversation.json()._id,
    madeTaskId: made.json()._id,
    givenTaskId: given.json()._id,
  };
  company.people[name] = person;
  return person;
}

/** A registered ADMIN of the company (a real account, so that erasing themself can be asked). */
async function admin(company: Company, code: string): Promise<void> {
  const registered = await stack.as(host, {
    method: 'POST',
    url: '/api/users/register',
    payload: {
      firstName: 'Admin',
      lastName: code,
      email: `admin@${code.toLowerCase()}.erase.test`,
      password: PASSWORD,
      role: 'ADMIN',
      companyId: company.id,
    },
  });
  expect(registered.statusCode).toBe(201);
  company.adminId = registered.json()._id;
  company.admin = await stack.tokenFor('ADMIN', company.id, company.adminId);
}

beforeAll(async () => {
  stack = await createTestStack(PRIVACY_STACK, {
    TRANSCRIPTION_WORKER: 'false',
    ADMIN_EMAIL: 'root@platform.test',
    ADMIN_PASSWORD: 'first-start-password',
  });
  host = await stack.tokenFor('HOST_ADMIN', null);
  for (const [company, code] of [
    [a, 'ERA-A'],
    [b, 'ERA-B'],
  ] as const) {
    const res = await stack.as(host, {
      method: 'POST',
      url: '/api/companies',
      payload: { name: code, code, domain: code.toLowerCase() },
    });
    expect(res.statusCode).toBe(201);
    company.id = res.json()._id;
    await admin(company, code);
  }
  await stack.settle();
  for (const name of ['Ann', 'Bob', 'Eve']) await member(a, name);
  await member(b, 'Carl');
}, 120_000);
afterAll(async () => stack.close());

const erase = (token: string, payload: Record<string, unknown>) =>
  stack.as(token, { method: 'POST', url: '/api/privacy/erase', payload });
const hold = (token: string, url: string, on: boolean) =>
  stack.as(token, { method: 'PUT', url, payload: { hold: on, reason: on ? 'Litigation 2026-17' : 'Settled' } });

/** Asks for an erasure, lets every service answer, and returns the finished job. */
async function erased(token: string, payload: Record<string, unknown>) {
  const accepted = await erase(token, payload);
  expect(accepted.statusCode).toBe(202);
  const { jobId } = accepted.json() as { jobId: string };
  await stack.settle();
  await stack.settle();
  const job = await stack.as(token, { method: 'GET', url: `/api/privacy/jobs/${jobId}` });
  expect(job.statusCode).toBe(200);
  expect(job.json()).toMatchObject({ jobId, kind: 'erase', status: 'done', pendingServices: [], download: null });
  return job.json() as { jobId: string; parts: { service: string; counts: Record<string, number> }[] };
}

const partsOf = (job: { parts: { service: string; counts: Record<string, number> }[] }) =>
  Object.fromEntries(job.parts.map((part) => [part.service, part.counts]));

/** Whether any company's files list, as its ADMIN sees it, still holds the recording. */
async function listed(company: Company, fileId: string): Promise<boolean> {
  const res = await stack.as(company.admin, { method: 'GET', url: '/api/files?pageSize=100' });
  expect(res.statusCode).toBe(200);
  return (res.json().items as { _id: string }[]).some((item) => item._id === fileId);
}

async function tasksOf(
  company: Company,
): Promise<{ _id: string; assigneeId: string | null; createdBy: string; clientId: string | null }[]> {
  const res = await stack.as(company.admin, { method: 'GET', url: '/api/tasks?limit=50' });
  expect(res.statusCode).toBe(200);
  return res.json().items;
}

/** Every entry the audit log keeps of one job's events, by type. */
async function auditedTypes(jobId: string): Promise<string[]> {
  const rows = await stack.database.query<{ type: string }>(
    "select type from audit.entries where data->>'jobId' = $1 order by seq",
    [jobId],
  );
  return rows.map((row) => row.type);
}

describe('erasing a user', () => {
  test('recordings deleted: the account, their recordings with their transcripts, chats, runs and inbox go; tasks stay without them; the audit log keeps who asked', async () => {
    const ann = a.people.Ann!;
    expect((await login(stack, { email: ann.email, password: PASSWORD }, '10.9.0.1')).statusCode).toBe(200);
    const job = await erased(a.admin, { userId: ann.id, recordings: 'delete' });
    const parts = partsOf(job);
    expect(Object.keys(parts).sort()).toEqual([
      'audit',
      'auth',
      'chat',
      'file',
      'messaging',
      'prompt',
      'tasks',
      'tenant',
      'transcription',
      'webhooks',
    ]);
    expect(parts.auth).toEqual({ accounts: 1, avatars: 0, sessions: 1, uploadsKept: 0 });
    expect(parts.file).toEqual({ recordingsDeleted: 1, held: 0 });
    expect(parts.chat).toEqual({ conversationsDeleted: 1, feedbackDeleted: 0 });
    expect(parts.tasks).toEqual({ unassigned: 1, creatorAnonymised: 1 });
    expect(parts.tenant).toEqual({ clientsUnowned: 0, memberships: expect.any(Number) });
    expect(parts.messaging).toEqual({ notificationsDeleted: expect.any(Number), mailDeleted: expect.any(Number) });
    // Her transcript and her run go with the recording, whichever path reached them first.
    expect(parts.transcription).toEqual({ transcriptsDeleted: expect.any(Number), held: 0, editsAnonymised: 0 });
    expect(parts.prompt).toEqual({ runsDeleted: expect.any(Number) });
    // The audit log keeps its entries about her (the chain must verify) and says so.
    expect(parts.audit!.kept).toBeGreaterThan(0);

    // No service answers anything of her any more.
    expect((await login(stack, { email: ann.email, password: PASSWORD }, '10.9.0.2')).statusCode).toBe(401);
    expect((await stack.as(a.admin, { method: 'GET', url: `/api/users/${ann.id}` })).statusCode).toBe(404);
    expect(await listed(a, ann.fileId)).toBe(false);
    expect((await stack.as(a.admin, { method: 'GET', url: `/api/transcripts/file/${ann.fileId}` })).statusCode).toBe(
      404,
    );
    const chats = await stack.as(ann.token, { method: 'GET', url: '/api/chat/conversations' });
    if (chats.statusCode === 200) expect(chats.json().items).toEqual([]);
    else expect(chats.statusCode).toBe(401);
    const tasks = await tasksOf(a);
    expect(tasks.filter((task) => task.assigneeId === ann.id || task.createdBy === ann.id)).toEqual([]);
    expect(tasks.find((task) => task._id === ann.givenTaskId)).toMatchObject({ assigneeId: null });
    expect(tasks.find((task) => task._id === ann.madeTaskId)).toMatchObject({
      createdBy: '00000000-0000-0000-0000-000000000000',
    });
    const copies = await stack.database.query<{ n: number }>(
      `select (select count(*) from prompt.analysis_runs where requested_by = $1) + (select count(*) from chat.conversations where owner_id = $1)
        + (select count(*) from messaging.notifications where user_id = $1) + (select count(*) from auth.privacy_files where uploaded_by = $2) as n`,
      [ann.id, ann.id],
    );
    expect(Number(copies[0]!.n)).toBe(0);

    // Bob (same company) and Carl (another company) are untouched.
    expect(await listed(a, a.people.Bob!.fileId)).toBe(true);
    expect(await listed(b, b.people.Carl!.fileId)).toBe(true);
    expect((await login(stack, { email: b.people.Carl!.email, password: PASSWORD }, '10.9.0.3')).statusCode).toBe(200);

    // Who asked, the services' parts and the end are in the company's audit log.
    const types = await auditedTypes(job.jobId);
    expect(types[0]).toBe('privacy.erase_requested');
    expect(types.filter((type) => type === 'privacy.part_erased')).toHaveLength(PRIVACY_SERVICES.length);
    expect(types.at(-1)).toBe('privacy.erased');
    const [done] = await stack.database.query<{
      actor_id: string;
      company_id: string;
      data: { parts: Record<string, unknown> };
    }>("select actor_id, company_id, data from audit.entries where type = 'privacy.erased' and data->>'jobId' = $1", [
      job.jobId,
    ]);
    expect(done).toMatchObject({ actor_id: a.adminId, company_id: a.id });
    expect(done!.data.parts.file).toEqual({ recordingsDeleted: 1, held: 0 });
  });

  test('recordings kept: the recording and transcript stay under the company without their uploader; runs are anonymised', async () => {
    const bob = a.people.Bob!;
    const job = await erased(a.admin, { userId: bob.id, recordings: 'keep' });
    const parts = partsOf(job);
    expect(parts.file).toEqual({ recordingsKept: 1 });
    expect(parts.transcription).toEqual({ uploadsKept: 1, editsAnonymised: 0 });
    expect(parts.prompt).toEqual({ runsAnonymised: 1, uploadsKept: 1 });
    expect(parts.chat).toEqual({ conversationsDeleted: 1, feedbackDeleted: 0, uploadsKept: 1 });
    expect(parts.auth).toMatchObject({ accounts: 1, uploadsKept: 1 });

    expect(await listed(a, bob.fileId)).toBe(true);
    expect((await stack.as(a.admin, { method: 'GET', url: `/api/transcripts/file/${bob.fileId}` })).statusCode).toBe(
      200,
    );
    expect((await stack.as(a.admin, { method: 'GET', url: `/api/users/${bob.id}` })).statusCode).toBe(404);
    const named = await stack.database.query<{ n: number }>(
      `select (select count(*) from file.files where uploaded_by = $1) + (select count(*) from transcription.transcripts where uploaded_by = $1)
        + (select count(*) from prompt.analysis_runs where requested_by = $1) + (select count(*) from tasks.recordings where uploaded_by = $2) as n`,
      [bob.id, bob.id],
    );
    expect(Number(named[0]!.n)).toBe(0);
  });

  test('a redelivered request removes nothing twice and reports once', async () => {
    const [row] = await stack.database.query<{ envelope: Record<string, unknown> & { companyId: string } }>(
      "select envelope from auth.outbox where envelope->>'type' = 'privacy.erase_requested' and envelope->'data'->'subject'->>'id' = $1",
      [a.people.Bob!.id],
    );
    const jobId = (row!.envelope.data as { jobId: string }).jobId;
    const before = await stack.as(a.admin, { method: 'GET', url: `/api/privacy/jobs/${jobId}` });
    await stack.bus.publish([
      { topic: 'earshot.privacy', key: row!.envelope.companyId, envelope: row!.envelope as never },
    ]);
    await stack.settle();
    await stack.settle();
    expect((await stack.as(a.admin, { method: 'GET', url: `/api/privacy/jobs/${jobId}` })).json()).toEqual(
      before.json(),
    );
    const types = await auditedTypes(jobId);
    expect(types.filter((type) => type === 'privacy.part_erased')).toHaveLength(PRIVACY_SERVICES.length);
    expect(types.filter((type) => type === 'privacy.erased')).toHaveLength(1);
  });
});

describe('erasing a client contact', () => {
  test('the client goes through its delete path, with the calls linked to it; their tasks are unlinked', async () => {
    const eve = a.people.Eve!;
    const created = await stack.as(a.admin, {
      method: 'POST',
      url: '/api/clients',
      payload: { name: 'Dora Erased', email: 'dora@client.test' },
    });
    expect(created.statusCode).toBe(201);
    const clientId = created.json()._id as string;
    await stack.settle();
    expect(
      (
        await stack.as(a.admin, {
          method: 'PUT',
          url: '/api/transcripts/link-client',
          payload: { transcriptId: eve.transcriptId, clientId },
        })
      ).statusCode,
    ).toBe(200);
    const task = await stack.as(a.admin, {
      method: 'POST',
      url: '/api/tasks',
      payload: { title: 'Call Dora back', clientId },
    });
    expect(task.statusCode).toBe(201);
    await stack.settle();

    const job = await erased(a.admin, { clientId, recordings: 'delete' });
    const parts = partsOf(job);
    expect(parts.tenant).toEqual({ clientsDeleted: 1 });
    expect(parts.file).toEqual({ recordingsDeleted: 1, held: 0 });
    expect(parts.tasks).toEqual({ clientUnlinked: 1 });
    expect(parts.auth).toEqual({ clients: 1 });
    expect(parts.chat).toEqual({});
    expect(parts.audit).toEqual({ kept: expect.any(Number) });

    expect((await stack.as(a.admin, { method: 'GET', url: `/api/clients/${clientId}` })).statusCode).toBe(404);
    expect(await listed(a, eve.fileId)).toBe(false);
    expect((await stack.as(a.admin, { method: 'GET', url: `/api/transcripts/file/${eve.fileId}` })).statusCode).toBe(
      404,
    );
    expect((await tasksOf(a)).find((t) => t._id === task.json()._id)).toMatchObject({ clientId: null });
    // Gone from the coordinator too: a second request finds no such client.
    expect((await erase(a.admin, { clientId, recordings: 'delete' })).statusCode).toBe(404);
    expect(await listed(b, b.people.Carl!.fileId)).toBe(true);
  });
});

describe('refused while under legal hold (409, naming the hold)', () => {
  test('a held recording, a held client, a held company', async () => {
    const fay = await member(a, 'Fay');
    const file = `/api/files/${fay.fileId}/hold`;
    expect((await hold(a.admin, file, true)).statusCode).toBe(200);
    await stack.settle();
    const held = await erase(a.admin, { userId: fay.id, recordings: 'delete' });
    expect(held.statusCode).toBe(409);
    expect(held.json()).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('legal hold'),
      details: [{ kind: 'file', id: fay.fileId }],
    });
    expect((await hold(a.admin, file, false)).statusCode).toBe(200);

    // A client held: the client itself cannot be erased, nor the recordings linked to it.
    const client = await stack.as(a.admin, { method: 'POST', url: '/api/clients', payload: { name: 'Gus Held' } });
    const clientId = client.json()._id as string;
    await stack.settle();
    expect(
      (
        await stack.as(a.admin, {
          method: 'PUT',
          url: '/api/transcripts/link-client',
          payload: { transcriptId: fay.transcriptId, clientId },
        })
      ).statusCode,
    ).toBe(200);
    expect((await hold(a.admin, `/api/clients/${clientId}/hold`, true)).statusCode).toBe(200);
    await stack.settle();
    const clientHeld = await erase(a.admin, { clientId, recordings: 'keep' });
    expect(clientHeld.statusCode).toBe(409);
    expect(clientHeld.json()).toMatchObject({
      message: 'This client is under legal hold: lift the hold before deleting it',
      details: [{ kind: 'client', id: clientId }],
    });
    expect((await erase(a.admin, { userId: fay.id, recordings: 'delete' })).json()).toMatchObject({
      details: [{ kind: 'client', id: clientId }],
    });
    expect((await hold(a.admin, `/api/clients/${clientId}/hold`, false)).statusCode).toBe(200);

    // The whole company held: nothing of it is erased, whatever becomes of the recordings.
    expect((await hold(host, `/api/companies/${a.id}/hold`, true)).statusCode).toBe(200);
    await stack.settle();
    const companyHeld = await erase(a.admin, { userId: fay.id, recordings: 'keep' });
    expect(companyHeld.statusCode).toBe(409);
    expect(companyHeld.json()).toMatchObject({
      message: 'This company is under legal hold: nothing of it can be deleted until the hold is lifted',
      details: [{ kind: 'company', id: a.id }],
    });
    expect((await hold(host, `/api/companies/${a.id}/hold`, false)).statusCode).toBe(200);
    await stack.settle();

    // Nothing was asked of the services while held; once lifted, the erasure goes through.
    expect(await listed(a, fay.fileId)).toBe(true);
    const job = await erased(a.admin, { userId: fay.id, recordings: 'delete' });
    expect(partsOf(job).file).toEqual({ recordingsDeleted: 1, held: 0 });
  });
});

describe('who may erase whom', () => {
  test("another company's person is 404; a user or caller is 403; nobody erases their own account; HOST_ADMIN anyone", async () => {
    const carl = b.people.Carl!;
    expect((await erase(a.admin, { userId: carl.id, recordings: 'keep' })).statusCode).toBe(404);
    expect((await erase(a.admin, { userId: crypto.randomUUID(), recordings: 'keep' })).statusCode).toBe(404);
    expect((await erase(a.admin, { clientId: crypto.randomUUID(), recordings: 'keep' })).statusCode).toBe(404);
    expect((await erase(carl.token, { userId: carl.id, recordings: 'keep' })).statusCode).toBe(403);
    expect(
      (await erase(await stack.tokenFor('CALLER', b.id), { userId: carl.id, recordings: 'keep' })).statusCode,
    ).toBe(403);
    expect((await erase(b.admin, { userId: b.adminId, recordings: 'keep' })).statusCode).toBe(403);
    expect(await listed(b, carl.fileId)).toBe(true);

    const job = await erased(host, { userId: carl.id, recordings: 'keep' });
    expect(partsOf(job).auth).toMatchObject({ accounts: 1 });
    // The job is their company's: another company's ADMIN does not see it.
    expect((await stack.as(a.admin, { method: 'GET', url: `/api/privacy/jobs/${job.jobId}` })).statusCode).toBe(404);
    expect((await stack.as(b.admin, { method: 'GET', url: `/api/privacy/jobs/${job.jobId}` })).statusCode).toBe(200);
  });

  test('the last administrator of a company is not erased (409); the body is checked, the field named', async () => {
    const res = await erase(host, { userId: b.adminId, recordings: 'keep' });
    expect(res.statusCode).toBe(409);
    const fieldOf = async (payload: Record<string, unknown>) => {
      const bad = await erase(a.admin, payload);
      expect(bad.statusCode).toBe(400);
      return (bad.json().details as { field: string }[]).map((d) => d.field);
    };
    const someone = crypto.randomUUID();
    expect(await fieldOf({ userId: someone })).toContain('body.recordings');
    expect(await fieldOf({ userId: someone, recordings: 'shred' })).toContain('body.recordings');
    expect(await fieldOf({ recordings: 'keep' })).toContain('body.userId');
    expect(await fieldOf({ userId: someone, clientId: someone, recordings: 'keep' })).toContain('body.userId');
    expect(await fieldOf({ userId: `${someone}\u0000`, recordings: 'keep' })).toContain('body.userId');
    expect((await erase(a.admin, { userId: someone, recordings: 'keep', extra: 1 })).statusCode).toBe(400);
  });
});

test("a deleted company's recordings and holds leave the coordinator's copies", async () => {
  const gone = crypto.randomUUID();
  const fileId = crypto.randomUUID();
  await stack.bus.publish([
    {
      topic: 'earshot.file',
      key: gone,
      envelope: buildEnvelope({
        type: 'file.uploaded',
        companyId: gone,
        actor: SYSTEM_ACTOR,
        data: {
          id: fileId,
          storageKey: `${gone}/x.wav`,
          originalName: 'x.wav',
          mimeType: 'audio/wav',
          size: 1,
          clientId: null,
          uploadedBy: null,
        },
      }),
    },
    {
      topic: 'earshot.file',
      key: gone,
      envelope: buildEnvelope({
        type: 'file.hold_changed',
        companyId: gone,
        actor: SYSTEM_ACTOR,
        data: { id: fileId, hold: true, reason: 'Audit' },
      }),
    },
  ]);
  await stack.settle();
  const copies = () =>
    stack.database.query<{ n: number }>(
      'select (select count(*) from auth.privacy_files where company_id = $1) + (select count(*) from auth.legal_holds where company_id = $1) as n',
      [gone],
    );
  expect(Number((await copies())[0]!.n)).toBe(2);
  await stack.bus.publish([
    {
      topic: 'earshot.tenant',
      key: gone,
      envelope: buildEnvelope({
        type: 'company.deleted',
        companyId: gone,
        actor: SYSTEM_ACTOR,
        data: { id: gone, before: null, after: null },
      }),
    },
  ]);
  await stack.settle();
  expect(Number((await copies())[0]!.n)).toBe(0);
});
