import { sql } from 'drizzle-orm';
import type { PrivacyJobDto, PrivacyQueueDto } from '@earshot/contracts';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { PRIVACY_STACK } from './privacy-stack';
import type { AuthConfig } from '../../../services/auth/src/config';
import { startDueJobs } from '../../../services/auth/src/services/privacy-line';

// Companies take turns with their people's exports and erasures: one company's batch of requests
// does not put another company's single one behind all of it. Every service answers in one stack.
let stack: TestStack;
let host: string;
const a = { id: '', admin: '', people: [] as string[] };
const b = { id: '', admin: '', people: [] as string[] };

async function company(into: typeof a, code: string, people: number): Promise<void> {
  const res = await stack.as(host, {
    method: 'POST',
    url: '/api/companies',
    payload: { name: code, code, domain: code.toLowerCase() },
  });
  expect(res.statusCode).toBe(201);
  into.id = res.json()._id;
  into.admin = await stack.tokenFor('ADMIN', into.id);
  for (let i = 0; i < people; i++) {
    const registered = await stack.as(into.admin, {
      method: 'POST',
      url: '/api/users/register',
      payload: {
        firstName: `Person${i}`,
        lastName: code,
        email: `person${i}@${code.toLowerCase()}.test`,
        password: 'correct horse battery',
        role: 'USER',
      },
    });
    expect(registered.statusCode).toBe(201);
    into.people.push(registered.json()._id);
  }
}

beforeAll(async () => {
  stack = await createTestStack(PRIVACY_STACK, {
    TRANSCRIPTION_WORKER: 'false',
    ADMIN_EMAIL: 'root@platform.test',
    ADMIN_PASSWORD: 'first-start-password',
  });
  host = await stack.tokenFor('HOST_ADMIN', null);
  await company(a, 'FAIR-A', 6);
  await company(b, 'FAIR-B', 1);
  await stack.settle();
}, 120_000);
afterAll(async () => stack.close());

const requested = async (token: string, url: string, payload: Record<string, unknown>): Promise<string> => {
  const res = await stack.as(token, { method: 'POST', url, payload });
  expect(res.statusCode).toBe(202);
  return res.json().jobId;
};
const jobOf = async (token: string, jobId: string) => {
  const res = await stack.as(token, { method: 'GET', url: `/api/privacy/jobs/${jobId}` });
  expect(res.statusCode).toBe(200);
  return res.json() as PrivacyJobDto;
};
const queueOf = async (token: string, query = '') =>
  (await stack.as(token, { method: 'GET', url: `/api/privacy/queue${query}` })).json() as PrivacyQueueDto;

/** How many times each job's request event was written to auth's outbox: once, when it started. */
async function requestEvents(): Promise<Map<string, number>> {
  const rows = await stack.database.query<{ job: string; n: number }>(
    `select envelope -> 'data' ->> 'jobId' as job, count(*)::int as n from auth.outbox
     where envelope ->> 'type' in ('privacy.export_requested', 'privacy.erase_requested') group by 1`,
  );
  return new Map(rows.map((row) => [row.job, row.n]));
}

/**
 * Runs `fn` while no service's part can be recorded (auth's part table is locked), so no job ends:
 * what started and what waits is exactly what the requests decided.
 */
async function withNoJobEnding(fn: () => Promise<void>): Promise<void> {
  let release!: () => void;
  let locked!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holder = stack.database.db.transaction(async (tx) => {
    await tx.execute(sql`lock table auth.privacy_parts in exclusive mode`);
    locked();
    await released;
  });
  await isLocked;
  try {
    await fn();
  } finally {
    release();
    await holder;
  }
}

/** Lets the services answer until no job runs or waits (each round waits for the bus, never for time). */
async function untilAllEnded(): Promise<void> {
  for (let round = 0; round < 30; round++) {
    await stack.settle();
    const [open] = await stack.database.query<{ n: number }>(
      "select count(*)::int as n from auth.privacy_jobs where status in ('queued', 'running')",
    );
    if (open!.n === 0) return;
  }
  throw new Error('privacy jobs still open after 30 rounds of the bus');
}

test("A's five exports and an erasure wait in A's line, one at a time, while B's single export starts at once and ends before A's second", async () => {
  const exportsOfA: string[] = [];
  let exportOfB = '';
  let erasureOfA = '';
  await withNoJobEnding(async () => {
    for (const userId of a.people.slice(0, 5))
      exportsOfA.push(await requested(a.admin, '/api/privacy/export', { userId }));
    exportOfB = await requested(b.admin, '/api/privacy/export', { userId: b.people[0] });
    erasureOfA = await requested(a.admin, '/api/privacy/erase', { userId: a.people[5], recordings: 'keep' });

    // The first of A's runs; the rest of A's wait, each with its place in A's line; B's runs.
    expect(await jobOf(a.admin, exportsOfA[0]!)).toMatchObject({ status: 'running', position: null });
    for (const [index, jobId] of exportsOfA.slice(1).entries()) {
      expect(await jobOf(a.admin, jobId)).toMatchObject({
        status: 'queued',
        position: index + 1,
        parts: [],
        finishedAt: null,
      });
    }
    const erasure = await jobOf(a.admin, erasureOfA);
    expect(erasure).toMatchObject({ kind: 'erase', status: 'queued', position: 5 });
    expect(erasure.pendingServices.length).toBeGreaterThan(0);
    expect(await jobOf(b.admin, exportOfB)).toMatchObject({ status: 'running', position: null });
    // Another company's job is not found, queued or not.
    expect((await stack.as(b.admin, { method: 'GET', url: `/api/privacy/jobs/${exportsOfA[1]}` })).statusCode).toBe(
      404,
    );

    // A's ADMIN sees the cap and the line; B's sees theirs; HOST_ADMIN names the company.
    expect(await queueOf(a.admin)).toEqual({
      companyId: a.id,
      cap: 1,
      running: 1,
      pending: 5,
      items: [...exportsOfA.slice(1), erasureOfA].map((jobId, index) => ({
        jobId,
        kind: jobId === erasureOfA ? 'erase' : 'export',
        subject: { kind: 'user', id: a.people[jobId === erasureOfA ? 5 : exportsOfA.indexOf(jobId)] },
        position: index + 1,
        createdAt: expect.any(String),
      })),
    });
    expect(await queueOf(b.admin, `?companyId=${a.id}`)).toMatchObject({ companyId: b.id, running: 1, pending: 0 });
    expect(await queueOf(host, `?companyId=${a.id}`)).toMatchObject({ companyId: a.id, pending: 5 });
    expect((await stack.as(host, { method: 'GET', url: '/api/privacy/queue' })).statusCode).toBe(400);
    const user = await stack.tokenFor('USER', a.id, a.people[0]);
    expect((await stack.as(user, { method: 'GET', url: '/api/privacy/queue' })).statusCode).toBe(403);

    // Only the started jobs asked the services; a restart (the start-up pass) starts nothing more.
    const before = await requestEvents();
    expect([...before.keys()].sort()).toEqual([exportsOfA[0], exportOfB].sort());
    const auth = stack.running.contexts.get('auth')!;
    await auth.transact((tx, emit) => startDueJobs(tx, emit, (auth.config as AuthConfig).PRIVACY_COMPANY_CONCURRENCY));
    expect(await requestEvents()).toEqual(before);
  });

  await untilAllEnded();
  const rows = await stack.database.query<{ id: string; status: string; started_at: Date; finished_at: Date }>(
    'select id, status, started_at, finished_at from auth.privacy_jobs where id = any($1::uuid[])',
    [[...exportsOfA, erasureOfA, exportOfB]],
  );
  const times = new Map(rows.map((row) => [row.id, row]));
  expect(rows.every((row) => row.status === 'done')).toBe(true);
  // A's ran one after the other in the order asked (the cap, 1), the erasure last.
  const lineOfA = [...exportsOfA, erasureOfA].map((id) => times.get(id)!);
  for (let i = 1; i < lineOfA.length; i++)
    expect(lineOfA[i]!.started_at.getTime()).toBeGreaterThanOrEqual(lineOfA[i - 1]!.finished_at.getTime());
  // B's was done before A's second (let alone A's last) was.
  expect(times.get(exportOfB)!.finished_at.getTime()).toBeLessThan(times.get(exportsOfA[1]!)!.finished_at.getTime());
  // Each job asked the services once.
  const events = await requestEvents();
  expect([...events.values()]).toEqual(rows.map(() => 1));
  expect((await jobOf(a.admin, erasureOfA)).position).toBeNull();
}, 300_000);

test("a service's part delivered again after its job ended starts nothing twice", async () => {
  const [first, second] = [a.people[0]!, a.people[1]!];
  let jobs: string[] = [];
  await withNoJobEnding(async () => {
    jobs = [
      await requested(a.admin, '/api/privacy/export', { userId: first }),
      await requested(a.admin, '/api/privacy/export', { userId: second }),
    ];
  });
  await untilAllEnded();
  // The last part of the first job, as a service that answered twice would send it (a new event).
  const [last] = await stack.database.query<{ envelope: Record<string, unknown> & { data: { service: string } } }>(
    `select envelope from auth.outbox where envelope ->> 'type' = 'privacy.part_ready'
     and envelope -> 'data' ->> 'jobId' = $1 order by seq desc limit 1`,
    [jobs[0]],
  );
  const envelope = { ...last!.envelope, id: crypto.randomUUID() };
  await stack.bus.publish([{ topic: 'earshot.privacy', key: a.id, envelope: envelope as never }]);
  await stack.settle();
  const events = await requestEvents();
  expect(jobs.map((jobId) => events.get(jobId))).toEqual([1, 1]);
  expect((await jobOf(a.admin, jobs[1]!)).status).toBe('done');
}, 300_000);

test('a company hold placed while an erasure waits its turn keeps the account when the erasure starts', async () => {
  const [running, erased] = [a.people[3]!, a.people[4]!];
  let erasure = '';
  await withNoJobEnding(async () => {
    await requested(a.admin, '/api/privacy/export', { userId: running });
    erasure = await requested(a.admin, '/api/privacy/erase', { userId: erased, recordings: 'keep' });
    expect(await jobOf(a.admin, erasure)).toMatchObject({ status: 'queued', position: 1 });
    // Auth's copy of the company's hold, as company.hold_changed writes it: the event itself would
    // queue behind the part that the lock holds back.
    await stack.database.query(
      "insert into auth.legal_holds (kind, id, company_id, reason) values ('company', $1, $1, 'Litigation')",
      [a.id],
    );
  });
  await untilAllEnded();
  const [part] = await stack.database.query<{ counts: Record<string, number> }>(
    "select counts from auth.privacy_parts where job_id = $1 and service = 'auth'",
    [erasure],
  );
  expect(part!.counts).toEqual({ accounts: 0, held: 1 });
  const [account] = await stack.database.query<{ n: number }>(
    'select count(*)::int as n from auth.users where id = $1',
    [erased],
  );
  expect(account!.n).toBe(1);
  await stack.database.query("delete from auth.legal_holds where kind = 'company' and id = $1", [a.id]);
}, 300_000);
