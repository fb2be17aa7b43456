import { randomUUID } from 'node:crypto';
import { CHAT_MESSAGES, type ConversationDto } from '@earshot/contracts';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { promptService } from '@earshot/prompt-service';
import { chatService } from '@earshot/chat-service';
import { createConversation, messagesOf, parseSse, publish, transcriptCompleted } from './helpers';

const ACME = randomUUID();
const OTHER = randomUUID();

let stack: TestStack;
let alice: string;
let bob: string;
let acmeAdmin: string;
let stranger: string;
let host: string;

beforeAll(async () => {
  stack = await createTestStack([promptService, chatService]);
  alice = await stack.tokenFor('USER', ACME);
  bob = await stack.tokenFor('CALLER', ACME);
  acmeAdmin = await stack.tokenFor('ADMIN', ACME);
  stranger = await stack.tokenFor('ADMIN', OTHER);
  host = await stack.tokenFor('HOST_ADMIN', null);
  await publish(
    stack,
    ...transcriptCompleted(ACME, randomUUID(), 'renewal.wav', [
      { speaker: 'Agent', start: 3, end: 9, text: 'Your contract renewal is due in March' },
    ]),
  );
}, 60_000);
afterAll(async () => stack.close());

/** Asks through inject: the whole stream is read before it returns. */
async function ask(token: string, id: string, body: Record<string, unknown>) {
  const res = await stack.as(token, {
    method: 'POST',
    url: `/api/chat/conversations/${id}/chat/stream`,
    payload: body,
  });
  return {
    res,
    events: res.headers['content-type']?.toString().startsWith('text/event-stream') ? parseSse(res.body) : [],
  };
}

async function list(token: string, query = '') {
  const res = await stack.as(token, { method: 'GET', url: `/api/chat/conversations${query}` });
  expect(res.statusCode).toBe(200);
  return res.json() as { items: ConversationDto[]; total: number; totalPages: number };
}

test('create, rename, list newest activity first, delete', async () => {
  const res = await stack.as(alice, {
    method: 'POST',
    url: '/api/chat/conversations',
    payload: { title: 'Quarterly numbers' },
  });
  expect(res.statusCode).toBe(201);
  const first = res.json() as ConversationDto;
  expect(first).toMatchObject({ title: 'Quarterly numbers', lastMessageAt: null });
  const second = await createConversation(stack, alice);

  expect((await list(alice)).items.map((c) => c._id).slice(0, 2)).toEqual([second, first._id]);
  // Activity moves a conversation to the top.
  expect((await ask(alice, first._id, { message: 'renewal' })).res.statusCode).toBe(200);
  expect((await list(alice)).items[0]!._id).toBe(first._id);

  const renamed = await stack.as(alice, {
    method: 'PATCH',
    url: `/api/chat/conversations/${second}`,
    payload: { title: '  Team sync  ' },
  });
  expect(renamed.statusCode).toBe(200);
  expect((renamed.json() as ConversationDto).title).toBe('Team sync');
  expect(
    (await stack.as(alice, { method: 'PATCH', url: `/api/chat/conversations/${second}`, payload: { title: '' } }))
      .statusCode,
  ).toBe(400);

  expect((await stack.as(alice, { method: 'DELETE', url: `/api/chat/conversations/${second}` })).statusCode).toBe(200);
  expect((await list(alice)).items.map((c) => c._id)).not.toContain(second);
  expect((await stack.as(alice, { method: 'GET', url: `/api/chat/conversations/${second}/messages` })).statusCode).toBe(
    404,
  );
  // Nobody else sees Alice's conversations in their lists.
  expect((await list(bob)).items.map((c) => c._id)).not.toContain(first._id);
  expect((await list(host)).items.map((c) => c._id)).not.toContain(first._id);
});

test('the first message titles an untitled conversation; later ones do not', async () => {
  const id = await createConversation(stack, alice);
  const question =
    'When is the contract renewal for the northern region customers due, and who called about it last week?';
  const { events } = await ask(alice, id, { message: question });
  const title = events[0]!.data.title as string;
  expect(title.length).toBeLessThanOrEqual(61);
  expect(title.endsWith('…')).toBe(true);
  expect(question.startsWith(title.slice(0, -1))).toBe(true);
  await ask(alice, id, { message: 'Something else entirely' });
  expect((await list(alice)).items.find((c) => c._id === id)!.title).toBe(title);

  const named = await createConversation(stack, alice, 'Named by hand');
  await ask(alice, named, { message: 'renewal' });
  expect((await list(alice)).items.find((c) => c._id === named)!.title).toBe('Named by hand');
});

test('search matches titles and message text, case-insensitively, and pages', async () => {
  const byTitle = await createConversation(stack, bob, 'Budget review');
  const byText = await createConversation(stack, bob, 'Misc');
  await ask(bob, byText, { message: 'What did the Zanzibar supplier say?' });
  await createConversation(stack, bob, 'Unrelated');

  expect((await list(bob, '?search=budget')).items.map((c) => c._id)).toEqual([byTitle]);
  expect((await list(bob, '?search=ZANZIBAR')).items.map((c) => c._id)).toEqual([byText]);
  expect((await list(bob, '?search=nothing-like-this')).total).toBe(0);
  // Wildcards are literal.
  expect((await list(bob, '?search=%25')).total).toBe(0);
  // Another person's words are not searchable by Bob.
  expect((await list(bob, '?search=renewal')).total).toBe(0);
  const paged = await list(bob, '?pageSize=2&page=2');
  expect(paged.items).toHaveLength(1);
  expect(paged).toMatchObject({ total: 3, totalPages: 2 });
});

test("another person's conversation is not found on any chat route, the stream included", async () => {
  const id = await createConversation(stack, alice, 'Private');
  const { events } = await ask(alice, id, { message: 'renewal' });
  const replyId = events.find((e) => e.event === 'done')!.data.messageId as string;
  for (const other of [bob, acmeAdmin, stranger, host]) {
    const calls = [
      stack.as(other, { method: 'GET', url: `/api/chat/conversations/${id}/messages` }),
      stack.as(other, { method: 'PATCH', url: `/api/chat/conversations/${id}`, payload: { title: 'Mine now' } }),
      stack.as(other, { method: 'DELETE', url: `/api/chat/conversations/${id}` }),
      stack.as(other, {
        method: 'POST',
        url: `/api/chat/conversations/${id}/chat/stream`,
        payload: { message: 'renewal' },
      }),
      stack.as(other, { method: 'POST', url: '/api/chat/feedback', payload: { messageId: replyId, rating: 'down' } }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('renewal');
    }
  }
  // Unchanged for its owner.
  const messages = await messagesOf(stack, alice, id);
  expect(messages).toHaveLength(2);
  expect(messages[1]!.feedback).toBeNull();
  expect((await list(alice, '?search=Private')).items[0]!.title).toBe('Private');
});

test('bad input is refused before anything streams', async () => {
  const id = await createConversation(stack, alice);
  const cases: [Record<string, unknown>, string][] = [
    [{ message: '' }, CHAT_MESSAGES.emptyMessage],
    [{ message: '   \n ' }, CHAT_MESSAGES.emptyMessage],
    [{ message: 'x'.repeat(100 * 1024) }, CHAT_MESSAGES.tooLong],
    [{ message: 'hello', modelId: randomUUID() }, CHAT_MESSAGES.unknownModel],
    [{ message: 'hello', modelId: 'gpt-4' }, 'body.modelId'],
    [{ message: 'hello', extra: true }, 'body'],
  ];
  for (const [body, said] of cases) {
    const { res } = await ask(alice, id, body);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toContain(said);
  }
  expect((await ask(alice, randomUUID(), { message: 'hello' })).res.statusCode).toBe(404);
  // Nothing was stored, and the conversation is not left busy.
  expect(await messagesOf(stack, alice, id)).toEqual([]);
  expect((await ask(alice, id, { message: 'renewal' })).res.statusCode).toBe(200);
  // Exactly at the limit is fine.
  expect((await ask(alice, id, { message: 'y'.repeat(20_000) })).res.statusCode).toBe(200);
});

test('feedback: one per reply and person, updatable, shown only to its author, replies only', async () => {
  const id = await createConversation(stack, alice);
  const { events } = await ask(alice, id, { message: 'renewal' });
  const start = events.find((e) => e.event === 'start')!.data;
  const replyId = events.find((e) => e.event === 'done')!.data.messageId as string;

  const up = await stack.as(alice, {
    method: 'POST',
    url: '/api/chat/feedback',
    payload: { messageId: replyId, rating: 'up' },
  });
  expect(up.statusCode).toBe(200);
  const down = await stack.as(alice, {
    method: 'POST',
    url: '/api/chat/feedback',
    payload: { messageId: replyId, rating: 'down', comment: 'Missed the March date' },
  });
  expect(down.statusCode).toBe(200);
  expect(down.json()).toMatchObject({
    _id: (up.json() as { _id: string })._id,
    rating: 'down',
    comment: 'Missed the March date',
  });
  const rows = await stack.database.query<{ n: string }>('select count(*)::text as n from chat.feedback');
  expect(rows[0]!.n).toBe('1');

  const reply = (await messagesOf(stack, alice, id)).find((m) => m._id === replyId)!;
  expect(reply.feedback).toEqual({ rating: 'down', comment: 'Missed the March date' });
  const question = await stack.as(alice, {
    method: 'POST',
    url: '/api/chat/feedback',
    payload: { messageId: start.userMessageId, rating: 'up' },
  });
  expect(question.statusCode).toBe(400);
  expect(
    (
      await stack.as(alice, {
        method: 'POST',
        url: '/api/chat/feedback',
        payload: { messageId: replyId, rating: 'meh' },
      })
    ).statusCode,
  ).toBe(400);
  expect(
    (
      await stack.as(alice, {
        method: 'POST',
        url: '/api/chat/feedback',
        payload: { messageId: randomUUID(), rating: 'up' },
      })
    ).statusCode,
  ).toBe(404);
});

test('with no model configured, the models call says the built-in assistant answers', async () => {
  const res = await stack.as(bob, { method: 'GET', url: '/api/chat/models' });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ models: [], builtIn: true });
});

test('events name conversations and replies but never carry what people wrote', async () => {
  const id = await createConversation(stack, alice);
  await ask(alice, id, { message: 'Confidential: the merger codename is Bluebird' });
  await stack.settle();
  const rows = await stack.database.query<{ type: string; envelope: string }>(
    "select envelope->>'type' as type, envelope::text as envelope from chat.outbox order by seq",
  );
  const types = new Set(rows.map((r) => r.type));
  for (const type of ['conversation.created', 'conversation.renamed', 'chat_reply.finished'])
    expect(types).toContain(type);
  expect(rows.filter((r) => /Bluebird|renewal|Confidential/.test(r.envelope))).toEqual([]);
  const finished = rows
    .filter((r) => r.type === 'chat_reply.finished')
    .map((r) => JSON.parse(r.envelope) as { data: Record<string, unknown> });
  expect(finished.find((e) => e.data.conversationId === id)!.data).toMatchObject({
    model: 'built-in',
    builtIn: true,
    providerId: null,
    status: 'complete',
    usage: null,
  });
});
