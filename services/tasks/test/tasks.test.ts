import { randomUUID } from 'node:crypto';
import type { Envelope, TaskDto, TaskPage } from '@earshot/contracts';
import { buildEnvelope } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { tasksService } from '../src';
import { utcDay } from '../src/services/tasks';
import { client, companyDeleted, deliver, member, proposed, upload } from './helpers';

let stack: TestStack;
const seen: Envelope[] = [];
const companyA = randomUUID();
const companyB = randomUUID();
// Ana (USER, the creator), Bo (USER, the assignee), Cy (USER, neither), the ADMIN; B's ADMIN.
const ana = member(companyA, 'Ana', 'Tamm');
const bo = member(companyA, 'Bo', 'Kask');
const cy = member(companyA, 'Cy', 'Saar');
const admin = member(companyA, 'Ada', 'Min');
const outsider = member(companyB, 'Ola', 'Berg');
const clientA = client(companyA);
const clientB = client(companyB);
const fileA = upload(companyA, { clientId: clientA.id });
const fileB = upload(companyB);
const tokens: Record<'ana' | 'bo' | 'cy' | 'admin' | 'adminB' | 'host', string> = {
  ana: '',
  bo: '',
  cy: '',
  admin: '',
  adminB: '',
  host: '',
};

beforeAll(async () => {
  stack = await createTestStack([tasksService]);
  await stack.bus.subscribe({
    group: 'test-observer',
    topics: ['earshot.tasks', 'earshot.tenant'],
    handle: async (e) => void seen.push(e),
  });
  await deliver(stack, ...[ana, bo, cy, admin, outsider, clientA, clientB, fileA, fileB].map((x) => x.event));
  tokens.ana = await stack.tokenFor('USER', companyA, ana.id);
  tokens.bo = await stack.tokenFor('USER', companyA, bo.id);
  tokens.cy = await stack.tokenFor('CALLER', companyA, cy.id);
  tokens.admin = await stack.tokenFor('ADMIN', companyA, admin.id);
  tokens.adminB = await stack.tokenFor('ADMIN', companyB, outsider.id);
  tokens.host = await stack.tokenFor('HOST_ADMIN', null);
}, 60_000);
afterAll(async () => stack.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (token: string, method: Method, url: string, payload?: unknown) =>
  stack.as(token, {
    method,
    url: `/api${url}`,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

async function create(token: string, body: Record<string, unknown>): Promise<TaskDto> {
  const res = await call(token, 'POST', '/tasks', body);
  expect(res.statusCode).toBe(201);
  return res.json();
}

describe('a task by hand', () => {
  let task: TaskDto;

  test('is created with its assignee, client and moment of a recording, and announced in the same transaction', async () => {
    task = await create(tokens.ana, {
      title: '  Send the quote  ',
      assigneeId: bo.id,
      dueDate: '2026-12-01',
      clientId: clientA.id,
      link: { fileId: fileA.id, seconds: 42.5 },
    });
    expect(task).toMatchObject({
      title: 'Send the quote',
      description: '',
      status: 'todo',
      assigneeId: bo.id,
      dueDate: '2026-12-01',
      clientId: clientA.id,
      link: { fileId: fileA.id, seconds: 42.5 },
      createdBy: ana.id,
    });
    await stack.settle();
    const created = seen.find((e) => e.type === 'task.created' && (e.data as { id: string }).id === task._id)!;
    expect(created).toMatchObject({
      companyId: companyA,
      actor: { id: ana.id },
      data: { before: null, after: { title: 'Send the quote', assigneeId: bo.id, dueDate: '2026-12-01' } },
    });
    const [row] = await stack.database.query<{ n: number }>(
      "select count(*)::int n from tasks.outbox where envelope ->> 'type' = 'task.created'",
    );
    expect(row!.n).toBeGreaterThan(0);
  });

  test('everyone of the company reads it; another company gets 404, the platform administrator reads it', async () => {
    for (const who of [tokens.ana, tokens.bo, tokens.cy, tokens.admin, tokens.host]) {
      expect((await call(who, 'GET', `/tasks/${task._id}`)).json()).toMatchObject({ _id: task._id });
    }
    expect((await call(tokens.adminB, 'GET', `/tasks/${task._id}`)).statusCode).toBe(404);
    expect((await call(tokens.adminB, 'PUT', `/tasks/${task._id}`, { status: 'done' })).statusCode).toBe(404);
    expect((await call(tokens.adminB, 'DELETE', `/tasks/${task._id}`)).statusCode).toBe(404);
    const list: TaskPage = (await call(tokens.adminB, 'GET', '/tasks')).json();
    expect(list.items.map((t) => t._id)).not.toContain(task._id);
  });

  test('a member who is neither assignee nor creator may not change or delete it (403); the assignee, the creator and the ADMIN may', async () => {
    expect((await call(tokens.cy, 'PUT', `/tasks/${task._id}`, { status: 'done' })).statusCode).toBe(403);
    expect((await call(tokens.cy, 'DELETE', `/tasks/${task._id}`)).statusCode).toBe(403);
    // A partial body: only the status changes.
    const moved = await call(tokens.bo, 'PUT', `/tasks/${task._id}`, { status: 'in_progress' });
    expect(moved.json()).toMatchObject({
      status: 'in_progress',
      title: 'Send the quote',
      assigneeId: bo.id,
      link: { fileId: fileA.id },
    });
    expect(
      (await call(tokens.ana, 'PUT', `/tasks/${task._id}`, { description: 'With the discount' })).json(),
    ).toMatchObject({ description: 'With the discount', status: 'in_progress' });
    expect((await call(tokens.admin, 'PUT', `/tasks/${task._id}`, { dueDate: null, link: null })).json()).toMatchObject(
      { dueDate: null, link: null },
    );
    await stack.settle();
    const updates = seen.filter((e) => e.type === 'task.updated' && (e.data as { id: string }).id === task._id);
    expect(updates.map((e) => (e.data as { after: { status: string } }).after.status)).toEqual([
      'in_progress',
      'in_progress',
      'in_progress',
    ]);
    expect(updates[0]!.data).toMatchObject({ before: { status: 'todo' }, after: { status: 'in_progress' } });
  });

  test('the assignee may delete it, and then it is gone (404) with a task.deleted', async () => {
    expect((await call(tokens.bo, 'DELETE', `/tasks/${task._id}`)).statusCode).toBe(200);
    expect((await call(tokens.ana, 'GET', `/tasks/${task._id}`)).statusCode).toBe(404);
    await stack.settle();
    expect(
      seen.find((e) => e.type === 'task.deleted' && (e.data as { id: string }).id === task._id)?.data,
    ).toMatchObject({ before: { title: 'Send the quote' }, after: null });
  });
});

describe('validation names the field', () => {
  const bad = async (body: Record<string, unknown>, field: string, method: Method = 'POST', url = '/tasks') => {
    const res = await call(tokens.ana, method, url, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
  };

  test('NUL bytes, sizes, dates and unknown fields', async () => {
    await bad({ title: 'a\u0000b' }, 'body.title');
    await bad({ title: 'x'.repeat(201) }, 'body.title');
    await bad({ title: '   ' }, 'body.title');
    await bad({ title: 'ok', description: 'd'.repeat(5001) }, 'body.description');
    await bad({ title: 'ok', dueDate: '2026-02-30' }, 'body.dueDate');
    await bad({ title: 'ok', dueDate: '01/12/2026' }, 'body.dueDate');
    await bad({ title: 'ok', status: 'blocked' }, 'body.status');
    await bad({ title: 'ok', link: { fileId: fileA.id, seconds: -1 } }, 'body.link.seconds');
  });

  test('an assignee, client or recording of another company (or unknown) is refused by name', async () => {
    await bad({ title: 'ok', assigneeId: outsider.id }, 'body.assigneeId');
    await bad({ title: 'ok', assigneeId: randomUUID() }, 'body.assigneeId');
    await bad({ title: 'ok', clientId: clientB.id }, 'body.clientId');
    await bad({ title: 'ok', link: { fileId: fileB.id, seconds: 0 } }, 'body.link.fileId');
    const task = await create(tokens.ana, { title: 'Mine' });
    await bad({ assigneeId: outsider.id }, 'body.assigneeId', 'PUT', `/tasks/${task._id}`);
    await bad({}, 'body', 'PUT', `/tasks/${task._id}`);
  });

  test('a disabled member cannot be given a task', async () => {
    const gone = member(companyA, 'Dee', 'Off', { status: 'disabled' });
    await deliver(stack, gone.event);
    await bad({ title: 'ok', assigneeId: gone.id }, 'body.assigneeId');
  });

  test('a forged or mismatched cursor is a 400 naming query.cursor', async () => {
    for (const cursor of [
      'garbage',
      Buffer.from(JSON.stringify({ s: 'title', o: 'asc', v: 'a', id: randomUUID() })).toString('base64url'),
      Buffer.from(JSON.stringify({ s: 'dueDate', o: 'asc', v: 'not-a-date', id: randomUUID() })).toString('base64url'),
    ]) {
      const res = await call(tokens.ana, 'GET', `/tasks?sort=dueDate&cursor=${cursor}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().details[0].field).toBe('query.cursor');
    }
  });

  test('the platform administrator, who belongs to no company, cannot make a task by hand', async () => {
    expect((await call(tokens.host, 'POST', '/tasks', { title: 'Nowhere' })).statusCode).toBe(400);
  });
});

describe('the list', () => {
  // A company of its own: 43 tasks with many equal sort keys and missing due dates.
  const company = randomUUID();
  let token: string;
  const who = member(company, 'Lee', 'List');

  beforeAll(async () => {
    await deliver(stack, who.event);
    token = await stack.tokenFor('USER', company, who.id);
    await stack.database.query(
      `
      insert into tasks.tasks (company_id, title, status, assignee_id, due_date, created_by, created_at)
      select $1, (array['Beta', 'alpha', 'Alpha', 'gamma'])[1 + i % 4], (array['todo', 'in_progress', 'done'])[1 + i % 3],
             case when i % 2 = 0 then $2::uuid end,
             case when i % 5 = 0 then null else date '2026-12-01' + (i % 3) end,
             $2, timestamptz '2026-11-01T10:00:00Z' + make_interval(secs => i % 4)
      from generate_series(1, 43) i`,
      [company, who.id],
    );
  });

  const walk = async (query: string, limit: number) => {
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const page: TaskPage = (
        await call(token, 'GET', `/tasks?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
      ).json();
      expect(page.items.length).toBeLessThanOrEqual(limit);
      ids.push(...page.items.map((t) => t._id));
      cursor = page.nextCursor;
      if (!cursor) return ids;
    }
    throw new Error('no end');
  };

  test.each([
    ['dueDate', 'asc'],
    ['dueDate', 'desc'],
    ['createdAt', 'asc'],
    ['createdAt', 'desc'],
    ['title', 'asc'],
    ['title', 'desc'],
    ['status', 'asc'],
    ['status', 'desc'],
  ] as const)('sorted by %s %s, pages of 4 give every task once in the order of one long page', async (sort, order) => {
    const whole = await walk(`sort=${sort}&order=${order}`, 100);
    expect(whole).toHaveLength(43);
    const paged = await walk(`sort=${sort}&order=${order}`, 4);
    expect(paged).toEqual(whole);
    // The order itself, checked apart from SQL: nulls of dueDate last ascending, first descending.
    const all: TaskDto[] = (await call(token, 'GET', `/tasks?sort=${sort}&order=${order}&limit=100`)).json().items;
    const rank = { todo: 0, in_progress: 1, done: 2 } as const;
    const key = (t: TaskDto): string | number =>
      sort === 'dueDate'
        ? (t.dueDate ?? '9999-12-31')
        : sort === 'createdAt'
          ? t.createdAt
          : sort === 'title'
            ? t.title.toLowerCase()
            : rank[t.status];
    const sign = order === 'asc' ? 1 : -1;
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [key(all[i - 1]!), key(all[i]!)];
      expect(a === b || (a < b ? sign === 1 : sign === -1)).toBe(true);
    }
  });

  test('filters: mine, status, due none, a page of a filter also walks whole', async () => {
    const mine: TaskDto[] = (await call(token, 'GET', '/tasks?mine=true&limit=100')).json().items;
    expect(mine).toHaveLength(21);
    expect(mine.every((t) => t.assigneeId === who.id)).toBe(true);
    expect(await walk('mine=true&status=done&sort=title', 2)).toHaveLength(
      mine.filter((t) => t.status === 'done').length,
    );
    const none: TaskDto[] = (await call(token, 'GET', '/tasks?due=none&limit=100')).json().items;
    expect(none).toHaveLength(8);
    expect(none.every((t) => t.dueDate === null)).toBe(true);
    expect(
      (await call(token, 'GET', `/tasks?assignee=${who.id}&status=todo&limit=100`))
        .json()
        .items.every((t: TaskDto) => t.status === 'todo' && t.assigneeId === who.id),
    ).toBe(true);
  });

  test('due today, this week and overdue are UTC days; overdue leaves done tasks out', async () => {
    const today = utcDay(new Date());
    const made = await Promise.all([
      create(token, { title: 'Yesterday open', dueDate: utcDay(new Date(), -1) }),
      create(token, { title: 'Yesterday done', dueDate: utcDay(new Date(), -1), status: 'done' }),
      create(token, { title: 'Today', dueDate: today }),
      create(token, { title: 'In six days', dueDate: utcDay(new Date(), 6) }),
      create(token, { title: 'In seven days', dueDate: utcDay(new Date(), 7) }),
    ]);
    const titles = async (due: string) =>
      ((await call(token, 'GET', `/tasks?due=${due}&limit=100`)).json().items as TaskDto[])
        .map((t) => t.title)
        .filter((t) => made.some((m) => m.title === t))
        .sort();
    expect(await titles('overdue')).toEqual(['Yesterday open']);
    expect(await titles('today')).toEqual(['Today']);
    expect(await titles('week')).toEqual(['In six days', 'Today']);
  });

  test('by client and by recording', async () => {
    const linked = await create(tokens.ana, {
      title: 'About the call',
      clientId: clientA.id,
      link: { fileId: fileA.id, seconds: 3 },
    });
    expect(
      (await call(tokens.ana, 'GET', `/tasks?fileId=${fileA.id}`)).json().items.map((t: TaskDto) => t._id),
    ).toEqual([linked._id]);
    expect(
      (await call(tokens.ana, 'GET', `/tasks?clientId=${clientA.id}`)).json().items.map((t: TaskDto) => t._id),
    ).toContain(linked._id);
    expect((await call(tokens.adminB, 'GET', `/tasks?fileId=${fileA.id}`)).json().items).toEqual([]);
  });
});

describe('tasks from an analysis run', () => {
  const company = randomUUID();
  const maria = member(company, 'Maria', 'Ivanova');
  const jaan = member(company, 'Jaan', 'Tamm');
  const jaan2 = member(company, 'Jaan', 'Kuusk');
  const customer = client(company);
  const call1 = upload(company, { clientId: customer.id });
  const run = proposed(company, call1.id, [
    { title: 'Send the contract', owner: 'maria ivanova', due: '2026-12-03' },
    { title: 'Call the bank', owner: 'Jaan', due: '2026-02-30' },
    { title: 'Book the room', owner: 'Maria', due: null },
    { title: 'Ask legal', owner: 'Somebody Else' },
  ]);
  let token: string;

  beforeAll(async () => {
    await deliver(stack, maria.event, jaan.event, jaan2.event, customer.event, call1.event, run.event);
    token = await stack.tokenFor('USER', company, jaan.id);
  });

  test('chosen items become tasks: the one member so named assigned, real dates kept, linked to the call and its client', async () => {
    const res = await call(token, 'POST', `/tasks/from-run/${run.runId}`, { items: [0, 1, 1, 2, 3] });
    expect(res.statusCode).toBe(201);
    const items: TaskDto[] = res.json().items;
    expect(items.map((t) => [t.title, t.assigneeId, t.dueDate])).toEqual([
      ['Send the contract', maria.id, '2026-12-03'],
      // Two Jaans: nobody is guessed. 2026-02-30 is no date.
      ['Call the bank', null, null],
      ['Book the room', maria.id, null],
      ['Ask legal', null, null],
    ]);
    for (const task of items)
      expect(task).toMatchObject({
        link: { fileId: call1.id, seconds: 0 },
        clientId: customer.id,
        createdBy: jaan.id,
        status: 'todo',
      });
    // Each names the run's item it came from, so the analysis page knows which items are tasks.
    expect(items.map((t) => t.source)).toEqual([0, 1, 2, 3].map((item) => ({ runId: run.runId, item })));
  });

  test('an item chosen again answers its task (200), making no second one', async () => {
    const first = await call(token, 'GET', `/tasks?limit=100`);
    const again = await call(token, 'POST', `/tasks/from-run/${run.runId}`, { items: [2, 0] });
    expect(again.statusCode).toBe(200);
    expect(again.json().items.map((t: TaskDto) => t.title)).toEqual(['Book the room', 'Send the contract']);
    expect((await call(token, 'GET', `/tasks?limit=100`)).json().items).toHaveLength(first.json().items.length);
  });

  test("an index the run did not propose is a 400 naming items; another company's or an unknown run is a 404", async () => {
    const out = await call(token, 'POST', `/tasks/from-run/${run.runId}`, { items: [4] });
    expect(out.statusCode).toBe(400);
    expect(out.json().details[0].field).toBe('body.items');
    expect((await call(tokens.adminB, 'POST', `/tasks/from-run/${run.runId}`, { items: [0] })).statusCode).toBe(404);
    expect((await call(token, 'POST', `/tasks/from-run/${randomUUID()}`, { items: [0] })).statusCode).toBe(404);
  });

  test('a deleted recording takes its proposals along; tasks already made stay', async () => {
    const other = upload(company);
    const gone = proposed(company, other.id, [{ title: 'Forgotten' }]);
    await deliver(stack, other.event, gone.event);
    const kept = await call(token, 'POST', `/tasks/from-run/${gone.runId}`, { items: [0] });
    expect(kept.statusCode).toBe(201);
    await deliver(
      stack,
      buildEnvelope({
        type: 'transcript.deleted',
        companyId: company,
        actor: { type: 'system', id: null },
        data: { id: null, fileId: other.id },
      }),
    );
    expect((await call(token, 'POST', `/tasks/from-run/${gone.runId}`, { items: [0] })).statusCode).toBe(404);
    expect((await call(token, 'GET', `/tasks/${kept.json().items[0]._id}`)).statusCode).toBe(200);
  });

  test('a redelivered proposal changes nothing', async () => {
    await deliver(stack, run.event);
    const [row] = await stack.database.query<{ n: number }>(
      'select count(*)::int n from tasks.proposals where run_id = $1',
      [run.runId],
    );
    expect(row!.n).toBe(1);
  });
});

describe('deleting a company', () => {
  test('removes its tasks, proposals and read models, and reports company.data_removed once', async () => {
    const company = randomUUID();
    const who = member(company, 'Zed', 'Gone');
    const file = upload(company);
    const run = proposed(company, file.id, [{ title: 'x' }]);
    await deliver(stack, who.event, file.event, run.event);
    await create(await stack.tokenFor('USER', company, who.id), { title: 'Bye', assigneeId: who.id });
    await deliver(stack, companyDeleted(company));
    for (const table of ['tasks', 'proposals', 'recordings', 'members']) {
      const [row] = await stack.database.query<{ n: number }>(
        `select count(*)::int n from tasks.${table} where company_id = $1`,
        [company],
      );
      expect([table, row!.n]).toEqual([table, 0]);
    }
    expect(seen.filter((e) => e.type === 'company.data_removed' && e.companyId === company).map((e) => e.data)).toEqual(
      [{ companyId: company, service: 'tasks' }],
    );
    // Company A is untouched.
    const [a] = await stack.database.query<{ n: number }>(
      'select count(*)::int n from tasks.tasks where company_id = $1',
      [companyA],
    );
    expect(a!.n).toBeGreaterThan(0);
  });
});

describe('the assignee picker', () => {
  test('every role gets the company’s current members by name; the platform administrator names the company; another company is not listed', async () => {
    for (const who of [tokens.ana, tokens.cy, tokens.admin]) {
      const names = (await call(who, 'GET', '/tasks/members')).json() as { _id: string; name: string }[];
      expect(names.map((m) => m._id).sort()).toEqual([ana.id, bo.id, cy.id, admin.id].sort());
      expect(names).toContainEqual({ _id: bo.id, name: 'Bo Kask' });
    }
    expect((await call(tokens.host, 'GET', `/tasks/members?companyId=${companyA}`)).json()).toHaveLength(4);
    expect((await call(tokens.host, 'GET', '/tasks/members')).json()).toEqual([]);
    // A member's companyId is their own, whatever they name.
    expect(
      ((await call(tokens.adminB, 'GET', `/tasks/members?companyId=${companyA}`)).json() as { _id: string }[]).map(
        (m) => m._id,
      ),
    ).toEqual([outsider.id]);
    expect((await call(tokens.ana, 'GET', '/tasks/members?companyId=nope')).statusCode).toBe(400);
  });
});
