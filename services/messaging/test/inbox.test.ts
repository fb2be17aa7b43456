import type { SMTPServer } from 'smtp-server';
import { topicOf, type EventType, type InboxItemDto, type InboxPage } from '@earshot/contracts';
import { buildEnvelope, type NewEvent } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { PAIR_EARLIER_MAIL } from '../src/db/migrations';
import { mailOf, messagingService } from '../src';
import { noticeText } from '../src/services/notification-texts';
import { smtpUrl, startSmtp, type Received } from './smtp';

// The inbox and the notices other services' events cause: the messaging service alone, fed the
// events the auth, tenant, tasks, transcription and prompt services publish, mailing through a real
// SMTP server on loopback. The sender's loop stays off: each test runs a round itself.
const received: Received[] = [];
let smtp: { server: SMTPServer; port: number };
let stack: TestStack;
const company = crypto.randomUUID();
const other = crypto.randomUUID();

async function publish(...events: NewEvent[]): Promise<void> {
  await stack.bus.publish(
    events.map((event) => ({
      topic: topicOf(event.type as EventType),
      key: event.companyId ?? '',
      envelope: buildEnvelope(event),
    })),
  );
  await stack.settle();
}

const actor = (id: string) => ({ type: 'user' as const, id, role: 'USER' as const });
const system = { type: 'system' as const, id: null };

async function person(
  companyId: string,
  firstName: string,
  role: 'ADMIN' | 'USER' = 'USER',
): Promise<{ id: string; token: string; email: string }> {
  const id = crypto.randomUUID();
  const email = `${firstName.toLowerCase()}@inbox.test`;
  await publish({
    type: 'user.created',
    companyId,
    actor: system,
    data: {
      id,
      before: null,
      after: { email, firstName, lastName: role === 'ADMIN' ? 'Admin' : 'User', role, companyId, status: 'active' },
    },
  });
  return { id, email, token: await stack.tokenFor(role, companyId, id) };
}

const inbox = async (token: string, query = '') => {
  const res = await stack.as(token, { method: 'GET', url: `/api/inbox${query}` });
  expect(res.statusCode).toBe(200);
  return res.json<InboxPage>();
};
const sendAll = () => mailOf(stack.running.contexts.get('messaging') as never).sender.runOnce();

const task = (fields: { title: string; assigneeId: string | null; dueDate?: string | null; createdBy: string }) => ({
  title: fields.title,
  description: '',
  status: 'todo' as const,
  assigneeId: fields.assigneeId,
  dueDate: fields.dueDate ?? null,
  clientId: null,
  link: null,
  createdBy: fields.createdBy,
});

let ada: Awaited<ReturnType<typeof person>>;
let bob: Awaited<ReturnType<typeof person>>;
let cy: Awaited<ReturnType<typeof person>>;

beforeAll(async () => {
  smtp = await startSmtp(received);
  stack = await createTestStack([messagingService], {
    SMTP_URL: smtpUrl(smtp.port),
    MAIL_WORKER: 'false',
    PUBLIC_URL: 'https://console.inbox.test',
  });
  const state = (name: string, domain: string) => ({
    name,
    code: domain.toUpperCase(),
    domain,
    status: 'active',
    maxUsers: null,
    maxStorage: null,
    language: 'en',
    theme: { primary: '#117755' },
  });
  await publish(
    {
      type: 'company.created',
      companyId: company,
      actor: system,
      data: { id: company, before: null, after: state('Tasks Co', 'tasksco') },
    },
    {
      type: 'company.created',
      companyId: other,
      actor: system,
      data: { id: other, before: null, after: state('Elsewhere', 'elsewhere') },
    },
  );
  ada = await person(company, 'Ada', 'ADMIN');
  bob = await person(company, 'Bob');
  cy = await person(company, 'Cy');
}, 60_000);

afterAll(async () => {
  await stack?.close();
  await new Promise<void>((resolve) => smtp?.server.close(() => resolve()));
});

describe('task notices', () => {
  test('a task given to someone else tells them in the app and by mail, one inbox item; one’s own task or an unchanged assignee tells no one', async () => {
    const id = crypto.randomUUID();
    await publish({
      type: 'task.created',
      companyId: company,
      actor: actor(ada.id),
      data: {
        id,
        before: null,
        after: task({ title: 'Call back Acme', assigneeId: bob.id, dueDate: '2026-12-01', createdBy: ada.id }),
      },
    });

    // One event, one item: the notice carries its mail, which opens by its own id.
    const page = await inbox(bob.token);
    expect(page.items.map((item) => [item.kind, item.title, item.link])).toEqual([
      ['task_assigned', 'New task: Call back Acme', `/task-list?task=${id}`],
    ]);
    expect(page.items[0]!.body).toBe('Ada Admin assigned you “Call back Acme”, due Dec 1, 2026.');
    expect(page.unread).toBe(1);
    expect(page.items[0]!.emailId).toMatch(/^m-/);
    const email = await stack.as(bob.token, { method: 'GET', url: `/api/inbox/${page.items[0]!.emailId}` });
    expect(email.json()).toMatchObject({ kind: 'email', title: 'New task: Call back Acme', read: false });
    expect(email.json<InboxItemDto>().body).toContain('Ada Admin assigned you a task in Tasks Co: “Call back Acme”.');
    expect((await inbox(bob.token, '?kind=email')).items).toEqual([]);

    expect(await sendAll()).toBe(1);
    const { mail } = received.at(-1)!;
    expect(mail.subject).toBe('New task: Call back Acme');
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : '').toBe(bob.email);
    expect(mail.text).toContain('Due: Dec 1, 2026');
    expect(mail.text).toContain(`Open the task: https://console.inbox.test/task-list?task=${id}`);
    expect(mail.html).toContain('border-top:4px solid #117755');

    // Bob makes himself a task: nobody is told. Bob hands it to Cy: Cy is. Ada renames it: nobody.
    const own = crypto.randomUUID();
    const mine = task({ title: 'Tidy notes', assigneeId: bob.id, createdBy: bob.id });
    await publish({
      type: 'task.created',
      companyId: company,
      actor: actor(bob.id),
      data: { id: own, before: null, after: mine },
    });
    expect((await inbox(bob.token)).items).toHaveLength(1);
    const handed = { ...mine, assigneeId: cy.id };
    await publish({
      type: 'task.updated',
      companyId: company,
      actor: actor(bob.id),
      data: { id: own, before: mine, after: handed },
    });
    expect((await inbox(cy.token)).items.map((item) => [item.kind, item.title])).toEqual([
      ['task_assigned', 'New task: Tidy notes'],
    ]);
    expect((await inbox(cy.token)).items[0]!.body).toBe('Bob User assigned you “Tidy notes”.');
    await publish({
      type: 'task.updated',
      companyId: company,
      actor: actor(ada.id),
      data: { id: own, before: handed, after: { ...handed, title: 'Tidy the notes' } },
    });
    expect((await inbox(cy.token)).items).toHaveLength(1);
    expect(await sendAll()).toBe(1);
    expect(received.at(-1)!.mail.subject).toBe('New task: Tidy notes');
  });

  test('people a task newly mentions (@First Last) are told in the app, not the writer nor the assignee just told, and not twice', async () => {
    const id = crypto.randomUUID();
    const first = {
      ...task({ title: 'Quote for Acme', assigneeId: bob.id, createdBy: ada.id }),
      description: 'Check the figures with @Cy User and @Bob',
    };
    const cyBefore = (await inbox(cy.token, '?kind=mention')).items.length;
    await publish({
      type: 'task.created',
      companyId: company,
      actor: actor(ada.id),
      data: { id, before: null, after: first },
    });
    const told = (await inbox(cy.token, '?kind=mention')).items;
    expect(told).toHaveLength(cyBefore + 1);
    expect(told[0]).toMatchObject({
      kind: 'mention',
      title: 'Ada Admin mentioned you: Quote for Acme',
      body: 'Ada Admin mentioned you in the task “Quote for Acme”.',
      link: `/task-list?task=${id}`,
    });
    // Bob was given the task: told of that, not also of the mention.
    expect(
      (await inbox(bob.token, '?kind=mention')).items.filter((item) => item.link === `/task-list?task=${id}`),
    ).toEqual([]);
    // An edit that keeps the mention tells Cy nothing new; one that adds @Ada (the writer) tells no one.
    const edited = { ...first, description: `${first.description} and @Ada Admin.` };
    await publish({
      type: 'task.updated',
      companyId: company,
      actor: actor(ada.id),
      data: { id, before: first, after: edited },
    });
    expect((await inbox(cy.token, '?kind=mention')).items).toHaveLength(cyBefore + 1);
    expect(
      (await inbox(ada.token, '?kind=mention')).items.filter((item) => item.link === `/task-list?task=${id}`),
    ).toEqual([]);
    // Bob mentions Ada later: she is told.
    await publish({
      type: 'task.updated',
      companyId: company,
      actor: actor(bob.id),
      data: { id, before: first, after: edited },
    });
    expect((await inbox(ada.token, '?kind=mention')).items.map((item) => item.title)).toContain(
      'Bob User mentioned you: Quote for Acme',
    );
    // Mentions are told in the app only: the one mail is Bob's assignment.
    expect(await sendAll()).toBe(1);
    expect(received.at(-1)!.mail.subject).toBe('New task: Quote for Acme');
  });

  test('the morning a task is due, its assignee is reminded in the app and by mail', async () => {
    const id = crypto.randomUUID();
    await publish({
      type: 'task.fell_due',
      companyId: company,
      actor: system,
      data: { id, title: 'Send the quote', assigneeId: cy.id, dueDate: '2026-11-26' },
    });
    const [notice] = (await inbox(cy.token, '?limit=1')).items;
    expect([notice!.kind, notice!.title, notice!.body, notice!.link]).toEqual([
      'task_due',
      'Due today: Send the quote',
      'Your task “Send the quote” is due today (Nov 26, 2026).',
      `/task-list?task=${id}`,
    ]);
    const mailed = await stack.as(cy.token, { method: 'GET', url: `/api/inbox/${notice!.emailId}` });
    expect(mailed.json()).toMatchObject({ kind: 'email', title: 'Due today: Send the quote' });
    expect(await sendAll()).toBe(1);
    expect(received.at(-1)!.mail).toMatchObject({ subject: 'Due today: Send the quote' });
    expect(received.at(-1)!.mail.text).toContain('Your task “Send the quote” is due today, Nov 26, 2026.');
  });
});

describe('recording notices', () => {
  test('a failed transcription tells its uploader; a finished analysis tells whoever ran it, linking to it', async () => {
    const fileId = crypto.randomUUID();
    await publish({
      type: 'file.uploaded',
      companyId: company,
      actor: actor(bob.id),
      data: {
        id: fileId,
        storageKey: `k/${fileId}`,
        originalName: 'acme-call.wav',
        mimeType: 'audio/wav',
        size: 10,
        clientId: null,
        uploadedBy: bob.id,
      },
    });
    await publish({
      type: 'transcript.status_changed',
      companyId: company,
      actor: system,
      data: { fileId, status: 'failed', reason: 'The recording has no audio stream' },
    });
    const [failed] = (await inbox(bob.token, '?kind=transcription_failed')).items;
    expect(failed).toMatchObject({
      title: 'Transcription failed: acme-call.wav',
      body: 'We could not transcribe acme-call.wav: The recording has no audio stream',
      link: `/transcripts/${fileId}`,
      read: false,
    });
    // Bob did not ask for failure mails: nothing is mailed, so nothing is carried.
    expect(failed!.emailId).toBeUndefined();

    const analysis = {
      id: crypto.randomUUID(),
      fileId,
      promptId: crypto.randomUUID(),
      promptVersion: 1,
      patternId: null,
      model: 'gpt-test',
      usage: { inputTokens: 1, outputTokens: 1 },
      durationMs: 5,
    };
    await publish({
      type: 'analysis.completed',
      companyId: company,
      actor: actor(ada.id),
      data: { ...analysis, userId: ada.id },
    });
    await publish({
      type: 'analysis.completed',
      companyId: company,
      actor: system,
      data: { ...analysis, id: crypto.randomUUID(), userId: null },
    });
    const finished = (await inbox(ada.token, '?kind=analysis_finished')).items;
    expect(finished.map((item) => [item.title, item.link])).toEqual([
      ['Analysis ready: acme-call.wav', `/transcripts/${fileId}/analysis`],
    ]);
  });
});

describe('webhook notices', () => {
  test("an endpoint turned off for failing tells the company's ADMINs in the app and by mail, nobody else", async () => {
    const endpointId = crypto.randomUUID();
    await publish({
      type: 'webhook_endpoint.disabled',
      companyId: company,
      actor: system,
      data: {
        id: endpointId,
        url: 'https://crm.example.com/hooks',
        failingSince: '2026-11-20T08:00:00.000Z',
        lastError: 'HTTP 503',
      },
    });
    const page = await inbox(ada.token);
    expect(page.items.slice(0, 2).map((item) => [item.kind, item.link])).toEqual([
      ['webhook_disabled', '/webhooks'],
      ['email', '/webhooks'],
    ]);
    expect(page.items[0]!.body).toContain('https://crm.example.com/hooks');
    expect((await inbox(bob.token)).items.some((item) => item.link === '/webhooks')).toBe(false);

    expect(await sendAll()).toBe(1);
    const { mail } = received.at(-1)!;
    expect(mail.subject).toBe('A webhook of Tasks Co was turned off');
    expect(mail.text).toContain('https://crm.example.com/hooks');
    expect(mail.text).toContain('HTTP 503');
  });
});

describe('the inbox', () => {
  let dee: Awaited<ReturnType<typeof person>>;
  const at = '2026-11-20T08:00:00.123456Z';

  beforeAll(async () => {
    dee = await person(company, 'Dee');
    // Six messages at one and the same instant, one later, one earlier, and a mail that failed (never sent: not listed).
    for (let n = 0; n < 4; n++) {
      await stack.database.query(
        `insert into messaging.notifications (user_id, company_id, kind, title, body, link, created_at) values ($1, $2, $3, $4, 'b', '/x', $5)`,
        [dee.id, company, n % 2 ? 'task_due' : 'task_assigned', `notice ${n}`, at],
      );
    }
    for (const [n, status, when] of [
      [0, 'sent', at],
      [1, 'queued', at],
      [2, 'sent', '2026-11-21T00:00:00Z'],
      [3, 'sent', '2026-11-19T00:00:00Z'],
      [4, 'failed', at],
    ] as const) {
      await stack.database.query(
        `insert into messaging.mail_messages (company_id, type, language, to_address, subject, status, user_id, link, text_body, created_at) values ($1, 'task_due', 'en', $2, $3, $4, $5, '/task-list', $6, $7)`,
        [company, dee.email, `mail ${n}`, status, dee.id, `text of mail ${n}`, when],
      );
    }
  });

  test('newest first, both kinds, pages that never repeat or skip under equal timestamps, filtered by kind', async () => {
    const all = await inbox(dee.token, '?limit=100');
    expect(all.items).toHaveLength(8);
    expect(all.items[0]).toMatchObject({
      kind: 'email',
      title: 'mail 2',
      body: 'text of mail 2',
      link: '/task-list',
      read: false,
      createdAt: '2026-11-21T00:00:00.000Z',
    });
    expect(all.items.at(-1)).toMatchObject({ title: 'mail 3' });
    expect(all.items.map((item) => item.title)).not.toContain('mail 4');
    expect(all.nextCursor).toBeNull();
    expect(all.unread).toBe(8);

    const walked: InboxItemDto[] = [];
    let cursor: string | null = null;
    do {
      const page: InboxPage = await inbox(
        dee.token,
        `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.items.length).toBeLessThanOrEqual(2);
      walked.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(walked.map((item) => item._id)).toEqual(all.items.map((item) => item._id));

    // Within one instant the order is the ids' (random here): compare those as sets.
    const mails = (await inbox(dee.token, '?kind=email')).items.map((item) => item.title);
    expect([mails[0], mails.slice(1, 3).sort(), mails[3]]).toEqual(['mail 2', ['mail 0', 'mail 1'], 'mail 3']);
    expect((await inbox(dee.token, '?kind=task_due')).items.map((item) => item.title).sort()).toEqual([
      'notice 1',
      'notice 3',
    ]);
    const due = await inbox(dee.token, '?kind=task_due&limit=1');
    const next = await inbox(dee.token, `?kind=task_due&limit=1&cursor=${due.nextCursor}`);
    expect([...due.items, ...next.items].map((item) => item.title).sort()).toEqual(['notice 1', 'notice 3']);
    expect(next.nextCursor).toBeNull();

    const bad = await stack.as(dee.token, { method: 'GET', url: '/api/inbox?cursor=bm90LWEtY3Vyc29y' });
    expect([bad.statusCode, bad.json().details[0].field]).toEqual([400, 'query.cursor']);
    expect((await stack.as(dee.token, { method: 'GET', url: '/api/inbox?kind=spam' })).statusCode).toBe(400);
  });

  test('read and unread, one message at a time, counting both kinds; another person’s message is not found', async () => {
    const [mail] = (await inbox(dee.token, '?kind=email')).items;
    const [notice] = (await inbox(dee.token, '?kind=task_due')).items;
    const put = (token: string, id: string, read: boolean) =>
      stack.as(token, { method: 'PUT', url: `/api/inbox/${id}`, payload: { read } });
    expect((await put(dee.token, mail!._id, true)).json()).toEqual({ unread: 7 });
    expect((await put(dee.token, mail!._id, true)).json()).toEqual({ unread: 7 });
    expect((await put(dee.token, notice!._id, true)).json()).toEqual({ unread: 6 });
    expect((await put(dee.token, mail!._id, false)).json()).toEqual({ unread: 7 });

    const one = await stack.as(dee.token, { method: 'GET', url: `/api/inbox/${notice!._id}` });
    expect(one.json()).toEqual({ ...notice, read: true });
    expect((await stack.as(dee.token, { method: 'GET', url: `/api/inbox/${mail!._id}` })).json()).toMatchObject({
      kind: 'email',
      read: false,
      body: mail!.body,
    });

    // Bob is of the same company: Dee's messages are still not his. Nor is an unknown or a failed mail anyone's.
    for (const id of [mail!._id, notice!._id, `n-${crypto.randomUUID()}`]) {
      expect((await stack.as(bob.token, { method: 'GET', url: `/api/inbox/${id}` })).statusCode).toBe(404);
      expect((await put(bob.token, id, true)).statusCode).toBe(404);
    }
    const [failed] = await stack.database.query<{ id: string }>(
      `select id from messaging.mail_messages where status = 'failed'`,
    );
    expect((await stack.as(dee.token, { method: 'GET', url: `/api/inbox/m-${failed!.id}` })).statusCode).toBe(404);
    expect((await stack.as(dee.token, { method: 'GET', url: '/api/inbox/x-123' })).statusCode).toBe(400);
    expect((await stack.as(dee.token, { method: 'GET', url: `/api/inbox/n-${'-'.repeat(36)}` })).statusCode).toBe(404);
    expect((await put(dee.token, notice!._id, 'yes' as never)).statusCode).toBe(400);
  });

  test('mark all read covers notifications and mail alike, and only the caller’s', async () => {
    await stack.database.query(
      `insert into messaging.notifications (user_id, company_id, kind, title, body) values ($1, $2, 'task_due', 'for Bob', 'b')`,
      [bob.id, company],
    );
    const bobBefore = (await inbox(bob.token, '')).unread;
    expect(bobBefore).toBeGreaterThan(0);
    expect((await inbox(dee.token, '')).unread).toBeGreaterThan(0);
    const done = await stack.as(dee.token, { method: 'POST', url: '/api/inbox/read-all' });
    expect(done.json()).toEqual({ unread: 0 });
    const after = await inbox(dee.token, '?limit=100');
    expect(after.items.filter((item) => !item.read)).toEqual([]);
    expect(after.items.some((item) => item.kind === 'email')).toBe(true);
    expect((await inbox(bob.token, '')).unread).toBe(bobBefore);
  });
});

describe('one inbox item per event', () => {
  const put = (token: string, id: string, read: boolean) =>
    stack.as(token, { method: 'PUT', url: `/api/inbox/${id}`, payload: { read } });
  const get = (token: string, id: string) => stack.as(token, { method: 'GET', url: `/api/inbox/${id}` });

  test('a notification carries its mail, read with it and counted once; a mail with no notification is listed', async () => {
    const gus = await person(company, 'Gus');
    const first = crypto.randomUUID();
    const second = crypto.randomUUID();
    for (const [id, title] of [
      [first, 'Ring Gus'],
      [second, 'Ring Gus again'],
    ] as const) {
      await publish({
        type: 'task.created',
        companyId: company,
        actor: actor(ada.id),
        data: { id, before: null, after: task({ title, assigneeId: gus.id, createdBy: ada.id }) },
      });
    }
    await publish({
      type: 'user.two_step_changed',
      companyId: company,
      actor: actor(gus.id),
      data: { id: gus.id, enabled: true },
    });
    const all = await inbox(gus.token);
    expect(all.items.map((item) => [item.kind, item.title, item.emailId?.slice(0, 2)])).toEqual([
      ['email', 'Two-step sign-in is on', undefined],
      ['task_assigned', 'New task: Ring Gus again', 'm-'],
      ['task_assigned', 'New task: Ring Gus', 'm-'],
    ]);
    expect(all.unread).toBe(3);
    // The two-step notice tells the day in words, not as 2026-11-30.
    expect((await get(gus.token, all.items[0]!._id)).json<InboxItemDto>().body).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    const [, again, ring] = all.items;

    // Reading the notification reads its mail; unread again, both are.
    expect((await put(gus.token, ring!._id, true)).json()).toEqual({ unread: 2 });
    expect((await get(gus.token, ring!.emailId!)).json()).toMatchObject({ kind: 'email', read: true });
    expect((await put(gus.token, ring!._id, false)).json()).toEqual({ unread: 3 });
    expect((await get(gus.token, ring!.emailId!)).json()).toMatchObject({ read: false });
    // Reading the mail (opened from its notification) reads the notification: still one event.
    expect((await put(gus.token, ring!.emailId!, true)).json()).toEqual({ unread: 2 });
    expect((await get(gus.token, ring!._id)).json()).toMatchObject({ read: true, emailId: ring!.emailId });
    // The bell reads notifications: their mails follow.
    const bell = await stack.as(gus.token, { method: 'POST', url: `/api/notifications/${again!._id.slice(2)}/read` });
    expect(bell.statusCode).toBe(200);
    expect((await get(gus.token, again!.emailId!)).json()).toMatchObject({ read: true });
    expect((await inbox(gus.token)).unread).toBe(1);

    // Walked one at a time, the pages hold the same three items: no carried mail slips in.
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page: InboxPage = await inbox(
        gus.token,
        `?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      walked.push(...page.items.map((item) => item._id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(walked).toEqual(all.items.map((item) => item._id));
    expect((await inbox(gus.token, '?kind=email')).items.map((item) => item._id)).toEqual([all.items[0]!._id]);

    // A mail given up as failed was never sent: its notification no longer offers it.
    await stack.database.query(`update messaging.mail_messages set status = 'failed' where id = $1`, [
      ring!.emailId!.slice(2),
    ]);
    const [, , lone] = (await inbox(gus.token)).items;
    expect([lone!._id, lone!.emailId]).toEqual([ring!._id, undefined]);
  });

  test('pairs written before notifications named their mail are linked by person, instant and kind', async () => {
    const hal = await person(company, 'Hal');
    const at = '2026-11-10T09:00:00.000001Z';
    const insertNotice = (kind: string, when: string) =>
      stack.database.query<{ id: string }>(
        `insert into messaging.notifications (user_id, company_id, kind, title, body, created_at) values ($1, $2, $3, 't', 'b', $4) returning id`,
        [hal.id, company, kind, when],
      );
    const insertMail = (type: string, when: string) =>
      stack.database.query<{ id: string }>(
        `insert into messaging.mail_messages (company_id, type, language, to_address, subject, status, user_id, created_at) values ($1, $2, 'en', $3, 's', 'sent', $4, $5) returning id`,
        [company, type, hal.email, hal.id, when],
      );
    const [assigned] = await insertNotice('task_assigned', at);
    const [assignedMail] = await insertMail('task_assigned', at);
    const [credit] = await insertNotice('credits_threshold', at);
    const [creditMail] = await insertMail('credits_low', at);
    // Another instant, or a mail of another kind, is another event.
    const [later] = await insertNotice('task_due', '2026-11-11T09:00:00Z');
    const [lateMail] = await insertMail('task_due', '2026-11-11T09:00:01Z');
    const [twoStep] = await insertMail('two_step_enabled', at);

    await stack.database.query(PAIR_EARLIER_MAIL);
    await stack.database.query(PAIR_EARLIER_MAIL);
    const links = await stack.database.query<{ id: string; mail_id: string | null }>(
      `select id, mail_id from messaging.notifications where user_id = $1`,
      [hal.id],
    );
    expect(Object.fromEntries(links.map((row) => [row.id, row.mail_id]))).toEqual({
      [assigned!.id]: assignedMail!.id,
      [credit!.id]: creditMail!.id,
      [later!.id]: null,
    });
    const items = (await inbox(hal.token)).items.map((item) => item._id);
    expect(items).toHaveLength(5);
    expect(items).toEqual(expect.arrayContaining([`m-${lateMail!.id}`, `m-${twoStep!.id}`]));
  });
});

describe('dates in notices', () => {
  test('a due day reads as the company’s language writes it, never as 2026-11-26', () => {
    for (const language of ['en', 'fr', 'et', 'lv']) {
      const day = new Intl.DateTimeFormat(language, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        timeZone: 'UTC',
      }).format(new Date(Date.UTC(2026, 10, 26)));
      const { body } = noticeText(language, 'task_due', { title: 'Quote', due: '2026-11-26' });
      expect([language, body.includes(day), body.includes('2026-11-26')]).toEqual([language, true, false]);
    }
  });
});

describe('leaving', () => {
  const count = async (sql: string, params: unknown[]) =>
    Number((await stack.database.query<{ n: string }>(sql, params))[0]!.n);

  test('a deleted person’s notifications and choices go with them; a deleted company’s messages, people and branding go, reported once', async () => {
    const eve = await person(other, 'Eve');
    const id = crypto.randomUUID();
    await publish({
      type: 'task.fell_due',
      companyId: other,
      actor: system,
      data: { id, title: 'Elsewhere', assigneeId: eve.id, dueDate: '2026-11-26' },
    });
    expect((await inbox(eve.token)).items.map((item) => [item.kind, item.emailId?.slice(0, 2)])).toEqual([
      ['task_due', 'm-'],
    ]);
    expect(
      (await stack.as(eve.token, { method: 'PUT', url: '/api/email/preferences', payload: { transcriptReady: true } }))
        .statusCode,
    ).toBe(200);
    await publish({
      type: 'user.deleted',
      companyId: other,
      actor: system,
      data: { id: eve.id, before: null, after: null },
    });
    expect(await count('select count(*) as n from messaging.notifications where user_id = $1', [eve.id])).toBe(0);
    expect(await count('select count(*) as n from messaging.people where user_id = $1', [eve.id])).toBe(0);
    expect(await count('select count(*) as n from messaging.mail_preferences where user_id = $1', [eve.id])).toBe(0);

    const fay = await person(other, 'Fay');
    await publish({
      type: 'task.fell_due',
      companyId: other,
      actor: system,
      data: { id, title: 'Elsewhere', assigneeId: fay.id, dueDate: '2026-11-27' },
    });
    // Delivered twice (the same envelope): applied and reported once.
    const deleted = buildEnvelope({
      type: 'company.deleted',
      companyId: other,
      actor: system,
      data: { id: other, before: null, after: null },
    });
    for (let n = 0; n < 2; n++)
      await stack.bus.publish([{ topic: topicOf('company.deleted'), key: other, envelope: deleted }]);
    await stack.settle();
    for (const table of ['notifications', 'mail_messages'])
      expect([
        table,
        await count(`select count(*) as n from messaging.${table} where company_id = $1`, [other]),
      ]).toEqual([table, 0]);
    expect(await count('select count(*) as n from messaging.people where company_id = $1', [other])).toBe(0);
    expect(await count('select count(*) as n from messaging.companies where id = $1', [other])).toBe(0);
    expect(
      await count(
        `select count(*) as n from messaging.outbox where envelope->>'type' = 'company.data_removed' and envelope->'data'->>'companyId' = $1`,
        [other],
      ),
    ).toBe(1);
    // The other company keeps its own.
    expect((await inbox(bob.token)).items.length).toBeGreaterThan(0);
  });
});
