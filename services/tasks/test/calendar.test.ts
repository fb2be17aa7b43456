import { randomUUID } from 'node:crypto';
import ICAL from 'ical.js';
import type { CalendarDto, Envelope } from '@earshot/contracts';
import type { ServiceContext } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { ReminderJob, tasksService, type TasksConfig } from '../src';
import { deliver, member, upload } from './helpers';

let stack: TestStack;
const seen: Envelope[] = [];
const company = randomUUID();
const other = randomUUID();
const ana = member(company, 'Ana', 'Tamm');
const bo = member(company, 'Bo', 'Kask');
const ola = member(other, 'Ola', 'Berg');
let ana_: string;
let bo_: string;
let ola_: string;

beforeAll(async () => {
  stack = await createTestStack([tasksService], { PUBLIC_URL: 'https://console.example.test' });
  await stack.bus.subscribe({
    group: 'test-observer',
    topics: ['earshot.tasks'],
    handle: async (e) => void seen.push(e),
  });
  await deliver(stack, ana.event, bo.event, ola.event);
  ana_ = await stack.tokenFor('USER', company, ana.id);
  bo_ = await stack.tokenFor('CALLER', company, bo.id);
  ola_ = await stack.tokenFor('ADMIN', other, ola.id);
}, 60_000);
afterAll(async () => stack.close());

const call = (token: string | null, method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
  stack.as(token, { method, url: `/api${url}`, ...(payload ? { payload } : {}) });

async function task(token: string, body: Record<string, unknown>): Promise<string> {
  const res = await call(token, 'POST', '/tasks', body);
  expect(res.statusCode).toBe(201);
  return res.json()._id;
}

describe('the calendar', () => {
  test("shows the company's recordings on their day and its tasks on their due date, within the range only", async () => {
    const inside = upload(company, { name: 'Kick-off.wav', uploadedAt: '2026-11-30T23:59:59.000Z' });
    const after = upload(company, { name: 'Later.wav', uploadedAt: '2026-12-01T00:00:00.000Z' });
    const elsewhere = upload(other, { name: 'Theirs.wav', uploadedAt: '2026-11-15T12:00:00.000Z' });
    await deliver(stack, inside.event, after.event, elsewhere.event);
    const due = await task(ana_, { title: 'Due in range', dueDate: '2026-11-10', assigneeId: bo.id });
    await task(ana_, { title: 'Due after', dueDate: '2026-12-01' });
    await task(ola_, { title: 'Another company', dueDate: '2026-11-10' });
    const res = await call(bo_, 'GET', '/calendar?from=2026-11-01&to=2026-11-30');
    expect(res.statusCode).toBe(200);
    const body: CalendarDto = res.json();
    expect(body.recordings).toEqual([
      { fileId: inside.id, originalName: 'Kick-off.wav', date: '2026-11-30T23:59:59.000Z' },
    ]);
    expect(body.tasks).toEqual([
      { _id: due, title: 'Due in range', due: '2026-11-10', status: 'todo', assigneeId: bo.id, createdBy: ana.id },
    ]);
  });

  test('a range backwards or longer than 62 days is refused naming `to`', async () => {
    for (const query of [
      'from=2026-11-02&to=2026-11-01',
      'from=2026-01-01&to=2026-03-04',
      'from=2026-11-01&to=2026-11-31',
    ]) {
      const res = await call(ana_, 'GET', `/calendar?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().details[0].field).toBe('query.to');
    }
  });
});

describe('the personal iCalendar feed', () => {
  let url: string;

  test('a secret address under PUBLIC_URL, stored only as its SHA-256', async () => {
    const res = await call(bo_, 'POST', '/calendar/feed');
    expect(res.statusCode).toBe(201);
    url = res.json().url;
    expect(url).toMatch(/^https:\/\/console\.example\.test\/api\/calendar\/feed\/[A-Za-z0-9_-]{43}\.ics$/);
    const token = url.split('/').at(-1)!.replace('.ics', '');
    const rows = await stack.database.query<{ token_hash: string }>(
      'select token_hash from tasks.feeds where user_id = $1',
      [bo.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).not.toContain(token);
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  test("answers the person's own tasks with a due date as all-day events, without a session, never cached", async () => {
    await task(ana_, {
      title: 'Send the contract',
      description: 'With the new prices',
      dueDate: '2026-12-24',
      assigneeId: bo.id,
    });
    await task(ana_, { title: 'Not due', assigneeId: bo.id });
    await task(ana_, { title: "Ana's own", dueDate: '2026-12-24', assigneeId: ana.id });
    const res = await stack.app.inject({ method: 'GET', url: new URL(url).pathname });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const calendar = new ICAL.Component(ICAL.parse(res.body) as unknown[]);
    const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    const byTitle = Object.fromEntries(events.map((e) => [e.summary, e]));
    expect(Object.keys(byTitle).sort()).toEqual(['Due in range', 'Send the contract']);
    const contract = byTitle['Send the contract']!;
    expect(contract.startDate.isDate).toBe(true);
    expect(contract.startDate.toString()).toBe('2026-12-24');
    expect(contract.endDate.toString()).toBe('2026-12-25');
    expect(contract.description).toBe('With the new prices');
    expect(byTitle['Due in range']!.startDate.toString()).toBe('2026-11-10');
  });

  test('a new address makes the old one 404; an unknown one is 404 too, and a malformed one 400', async () => {
    const fresh = (await call(bo_, 'POST', '/calendar/feed')).json().url as string;
    expect(fresh).not.toBe(url);
    expect((await stack.app.inject({ method: 'GET', url: new URL(url).pathname })).statusCode).toBe(404);
    expect((await stack.app.inject({ method: 'GET', url: new URL(fresh).pathname })).statusCode).toBe(200);
    expect(
      (await stack.app.inject({ method: 'GET', url: `/api/calendar/feed/${'A'.repeat(43)}.ics` })).statusCode,
    ).toBe(404);
    expect((await stack.app.inject({ method: 'GET', url: '/api/calendar/feed/short.ics' })).statusCode).toBe(400);
  });

  test('a person who leaves the company loses the feed', async () => {
    const url2 = (await call(ana_, 'POST', '/calendar/feed')).json().url as string;
    await deliver(stack, {
      ...ana.event,
      id: randomUUID(),
      type: 'user.deleted',
      occurredAt: new Date(Date.now() + 1000).toISOString(),
      data: { id: ana.id, before: ana.event.data.after, after: null },
    } as Envelope);
    expect((await stack.app.inject({ method: 'GET', url: new URL(url2).pathname })).statusCode).toBe(404);
  });
});

describe('due reminders', () => {
  const ctx = () => stack.running.contexts.get('tasks') as ServiceContext<TasksConfig>;
  const job = () => new ReminderJob(ctx());
  const reminded = () =>
    seen.filter((e) => e.type === 'task.fell_due').map((e) => e.data as { id: string; dueDate: string });

  test('go out once, from the configured hour (UTC) of the due date, for open assigned tasks only', async () => {
    expect(ctx().config.TASK_REMINDER_HOUR_UTC).toBe(7);
    const open = await task(ana_, { title: 'Open', dueDate: '2026-12-24', assigneeId: bo.id });
    const done = await task(ana_, { title: 'Done', dueDate: '2026-12-24', assigneeId: bo.id, status: 'done' });
    const nobody = await task(ana_, { title: 'Nobody', dueDate: '2026-12-24' });
    const tomorrow = await task(ana_, { title: 'Tomorrow', dueDate: '2026-12-25', assigneeId: bo.id });
    const before = reminded().length;
    expect(await job().run(new Date('2026-12-24T06:59:59Z'))).toBe(0);
    // 'Send the contract' and 'Ana's own' (made above) are due that day too, with an assignee.
    expect(await job().run(new Date('2026-12-24T07:00:00Z'))).toBe(3);
    expect(await job().run(new Date('2026-12-24T18:00:00Z'))).toBe(0);
    await stack.settle();
    const sent = reminded().slice(before);
    expect(sent).toHaveLength(3);
    expect(sent.map((r) => r.id)).toContain(open);
    expect(sent.map((r) => r.id)).not.toContain(done);
    expect(sent.map((r) => r.id)).not.toContain(nobody);
    expect(sent.map((r) => r.id)).not.toContain(tomorrow);
    expect(seen.find((e) => e.type === 'task.fell_due' && (e.data as { id: string }).id === open)).toMatchObject({
      companyId: company,
      data: { id: open, title: 'Open', assigneeId: bo.id, dueDate: '2026-12-24' },
    });
  });

  test('a task moved to a later day is reminded again on that day, and only then', async () => {
    const moved = await task(ana_, { title: 'Moved', dueDate: '2027-01-04', assigneeId: bo.id });
    expect(await job().run(new Date('2027-01-04T08:00:00Z'))).toBe(1);
    expect((await call(ana_, 'PUT', `/tasks/${moved}`, { dueDate: '2027-01-06' })).statusCode).toBe(200);
    expect(await job().run(new Date('2027-01-05T08:00:00Z'))).toBe(0);
    expect(await job().run(new Date('2027-01-06T08:00:00Z'))).toBe(1);
    // Backdated in SQL to a day already reminded: nothing again.
    await stack.database.query("update tasks.tasks set due_date = '2027-01-04' where id = $1", [moved]);
    expect(await job().run(new Date('2027-01-04T09:00:00Z'))).toBe(0);
    await stack.settle();
    expect(
      reminded()
        .filter((r) => r.id === moved)
        .map((r) => r.dueDate),
    ).toEqual(['2027-01-04', '2027-01-06']);
  });
});
