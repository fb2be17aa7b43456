import { randomUUID } from 'node:crypto';
import type { CalendarDto, TaskDto, TaskPage } from '@earshot/contracts';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { tasksService } from '../src';
import { companyCreated, deliver, member, proposed, upload } from './helpers';

// In a b2c company each member's recordings are private to them, and so are the tasks
// made of them: a member sees, changes and is given only their own tasks, and sees only their own
// recordings on the calendar.
let stack: TestStack;
const shop = randomUUID();
const mia = member(shop, 'Mia', 'Lind');
const noa = member(shop, 'Noa', 'Lind');
const admin = member(shop, 'Ada', 'Min');
const miaCall = upload(shop, { uploadedBy: mia.id, uploadedAt: '2026-11-10T10:00:00.000Z' });
const noaCall = upload(shop, { uploadedBy: noa.id, uploadedAt: '2026-11-11T10:00:00.000Z' });
const noaRun = proposed(shop, noaCall.id, [{ title: 'Call back', owner: 'Noa' }]);
const miaRun = proposed(shop, miaCall.id, [{ title: 'Send the offer', owner: 'Noa Lind' }]);
const tokens = { mia: '', noa: '', admin: '', host: '' };

beforeAll(async () => {
  stack = await createTestStack([tasksService]);
  await deliver(
    stack,
    companyCreated(shop, 'b2c'),
    mia.event,
    noa.event,
    admin.event,
    miaCall.event,
    noaCall.event,
    noaRun.event,
    miaRun.event,
  );
  tokens.mia = await stack.tokenFor('USER', shop, mia.id);
  tokens.noa = await stack.tokenFor('USER', shop, noa.id);
  tokens.admin = await stack.tokenFor('ADMIN', shop, admin.id);
  tokens.host = await stack.tokenFor('HOST_ADMIN', null);
}, 60_000);
afterAll(async () => stack.close());

const call = (
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: Record<string, unknown>,
) => stack.as(token, { method, url: `/api${url}`, ...(payload ? { payload } : {}) });

test("a member's task is theirs alone: others of the b2c company (their ADMIN too) get 404 and never list it; the platform administrator reads it", async () => {
  const created = await call(tokens.mia, 'POST', '/tasks', {
    title: 'Mine',
    dueDate: '2026-11-12',
    link: { fileId: miaCall.id, seconds: 3 },
  });
  expect(created.statusCode).toBe(201);
  const task: TaskDto = created.json();
  for (const other of [tokens.noa, tokens.admin]) {
    expect((await call(other, 'GET', `/tasks/${task._id}`)).statusCode).toBe(404);
    expect((await call(other, 'PUT', `/tasks/${task._id}`, { status: 'done' })).statusCode).toBe(404);
    expect((await call(other, 'DELETE', `/tasks/${task._id}`)).statusCode).toBe(404);
    expect(((await call(other, 'GET', '/tasks')).json() as TaskPage).items.map((t) => t._id)).not.toContain(task._id);
  }
  expect(((await call(tokens.mia, 'GET', '/tasks')).json() as TaskPage).items.map((t) => t._id)).toEqual([task._id]);
  expect((await call(tokens.host, 'GET', `/tasks/${task._id}`)).statusCode).toBe(200);
});

test('a task is given only to its maker and names only their own recordings (400 naming the field)', async () => {
  const toOther = await call(tokens.mia, 'POST', '/tasks', { title: 'For Noa', assigneeId: noa.id });
  expect(toOther.statusCode).toBe(400);
  expect(JSON.stringify(toOther.json())).toContain('assigneeId');
  const othersCall = await call(tokens.mia, 'POST', '/tasks', {
    title: 'About Noa',
    link: { fileId: noaCall.id, seconds: 0 },
  });
  expect(othersCall.statusCode).toBe(400);
  expect(JSON.stringify(othersCall.json())).toContain('link.fileId');
  expect((await call(tokens.mia, 'POST', '/tasks', { title: 'For me', assigneeId: mia.id })).statusCode).toBe(201);
});

test("another member's run is not found; an action item naming someone else stays unassigned", async () => {
  expect((await call(tokens.mia, 'POST', `/tasks/from-run/${noaRun.runId}`, { items: [0] })).statusCode).toBe(404);
  const made = await call(tokens.mia, 'POST', `/tasks/from-run/${miaRun.runId}`, { items: [0] });
  expect(made.statusCode).toBe(201);
  expect(made.json().items[0]).toMatchObject({ title: 'Send the offer', assigneeId: null, createdBy: mia.id });
});

test('the calendar shows a member their own recordings and tasks only', async () => {
  const mine: CalendarDto = (await call(tokens.mia, 'GET', '/calendar?from=2026-11-01&to=2026-11-30')).json();
  expect(mine.recordings.map((r) => r.fileId)).toEqual([miaCall.id]);
  expect(mine.tasks.every((t) => t.createdBy === mia.id || t.assigneeId === mia.id)).toBe(true);
  expect(mine.tasks.length).toBeGreaterThan(0);
  const noas: CalendarDto = (await call(tokens.noa, 'GET', '/calendar?from=2026-11-01&to=2026-11-30')).json();
  expect(noas.recordings.map((r) => r.fileId)).toEqual([noaCall.id]);
  expect(noas.tasks).toEqual([]);
});

test('the assignee picker offers a b2c member only themself', async () => {
  expect((await call(tokens.mia, 'GET', '/tasks/members')).json()).toEqual([{ _id: mia.id, name: 'Mia Lind' }]);
});
