import { randomUUID } from 'node:crypto';
import type { FakeOpenAI } from '@earshot/ai/testing';
import type { TestStack } from '@earshot/kit/testing';
import type { TranscriptCitationDto } from '@earshot/contracts';
import {
  addChatModel,
  createConversation,
  deltas,
  messagesOf,
  publish,
  stackWithFakeProvider,
  streamReply,
  transcriptCompleted,
} from './helpers';

const ACME = randomUUID();
const callFile = randomUUID();

let stack: TestStack;
let fake: FakeOpenAI;
let base: string;
let close: () => Promise<void>;
let user: string;
let modelId: string;
let providerId: string;

beforeAll(async () => {
  ({ stack, fake, base, close } = await stackWithFakeProvider());
  user = await stack.tokenFor('USER', ACME);
  ({ modelId, providerId } = await addChatModel(stack, fake.url, { apiKey: 'sk-test-secret-9876', name: 'fake-chat' }));
  await publish(
    stack,
    ...transcriptCompleted(ACME, callFile, 'pricing-call.wav', [
      { speaker: 'Customer', start: 12, end: 18, text: 'Can you match the competitor price of forty euros per seat?' },
      { speaker: 'Agent', start: 18.5, end: 25, text: 'I can offer thirty-five euros per seat on an annual plan.' },
    ]),
  );
}, 60_000);
afterAll(async () => close());

test('the models call lists the configured model and the built-in assistant steps back', async () => {
  const res = await stack.as(user, { method: 'GET', url: '/api/chat/models' });
  expect(res.json()).toEqual({ models: [{ _id: modelId, name: 'fake-chat', isDefault: true }], builtIn: false });
});

test('a model reply streams in order, ends with its id and usage, is stored, and was given the passages', async () => {
  fake.queueReply({
    pieces: ['The agent', ' offered', ' 35 euros', ' per seat [2].'],
    usage: { prompt_tokens: 321, completion_tokens: 4, total_tokens: 325 },
  });
  const id = await createConversation(stack, user);
  const { events } = await streamReply(base, user, id, { message: 'What price per seat did we offer?' });

  expect(events.map((e) => e.event)).toEqual(['start', 'delta', 'delta', 'delta', 'delta', 'done']);
  expect(events[0]!.data).toMatchObject({
    model: 'fake-chat',
    builtIn: false,
    title: 'What price per seat did we offer?',
  });
  expect(deltas(events)).toEqual(['The agent', ' offered', ' 35 euros', ' per seat [2].']);
  const done = events.at(-1)!.data as {
    messageId: string;
    status: string;
    usage: unknown;
    citations: TranscriptCitationDto[];
  };
  expect(done).toMatchObject({
    status: 'complete',
    usage: { promptTokens: 321, completionTokens: 4, totalTokens: 325 },
  });
  expect(done.citations.map((c) => c.fileId)).toEqual([callFile, callFile]);

  const [question, reply] = await messagesOf(stack, user, id);
  expect(question).toMatchObject({ role: 'user', content: 'What price per seat did we offer?' });
  expect(reply).toMatchObject({
    _id: done.messageId,
    role: 'assistant',
    content: 'The agent offered 35 euros per seat [2].',
    status: 'complete',
    model: 'fake-chat',
    error: null,
    usage: { promptTokens: 321, completionTokens: 4, totalTokens: 325 },
  });
  expect(reply!.citations).toEqual(done.citations);

  const sent = fake.requests.at(-1)!;
  expect(sent.headers.authorization).toBe('Bearer sk-test-secret-9876');
  expect(sent.body).toMatchObject({ model: 'fake-chat', stream: true, stream_options: { include_usage: true } });
  const messages = sent.body!.messages!;
  expect(messages[0]!.role).toBe('system');
  const sources = messages.find((m) => m.content.startsWith('Transcript passages:'))!.content;
  expect(sources).toContain('"pricing-call.wav", Agent at 0:18');
  expect(sources).toContain('I can offer thirty-five euros per seat on an annual plan.');
  expect(sources).toContain(`/transcripts/${callFile}?t=18`);
  expect(messages.at(-1)).toEqual({ role: 'user', content: 'What price per seat did we offer?' });
});

test('the conversation so far goes with each question, and regenerate replaces the last reply', async () => {
  const id = await createConversation(stack, user);
  fake.queueReply({ pieces: ['Forty euros.'] });
  await streamReply(base, user, id, { message: 'What did the competitor charge?' });
  fake.queueReply({ pieces: ['First try.'] });
  await streamReply(base, user, id, { message: 'And per year?' });

  const history = fake.requests.at(-1)!.body!.messages!.filter((m) => m.role !== 'system');
  expect(history).toEqual([
    { role: 'user', content: 'What did the competitor charge?' },
    { role: 'assistant', content: 'Forty euros.' },
    { role: 'user', content: 'And per year?' },
  ]);

  fake.queueReply({ pieces: ['Second try.'] });
  const { events } = await streamReply(base, user, id, { message: 'And per year?', regenerate: true });
  expect(events.at(-1)!.event).toBe('done');
  // The model was not shown the reply it replaces.
  expect(fake.requests.at(-1)!.body!.messages!.map((m) => m.content)).not.toContain('First try.');
  const messages = await messagesOf(stack, user, id);
  expect(messages.map((m) => [m.role, m.content])).toEqual([
    ['user', 'What did the competitor charge?'],
    ['assistant', 'Forty euros.'],
    ['user', 'And per year?'],
    ['assistant', 'Second try.'],
  ]);
});

test.each([
  [500, 'The server had an error while processing your request', 'answered with an error (500'],
  [401, 'Incorrect API key provided: sk-test***9876', 'refused the API key (401'],
])(
  'a provider answering %d gives an error event, a stored failed reply, and the service keeps working',
  async (status, said, expected) => {
    fake.queueReply({ error: { status, message: said } });
    const id = await createConversation(stack, user);
    const { events } = await streamReply(base, user, id, { message: 'Summarise the pricing call' });
    expect(events.map((e) => e.event)).toEqual(['start', 'error']);
    const error = events[1]!.data as { messageId: string; message: string };
    expect(error.message).toContain(expected);
    expect(error.message).not.toContain('sk-test-secret');

    const [, reply] = await messagesOf(stack, user, id);
    expect(reply).toMatchObject({
      _id: error.messageId,
      role: 'assistant',
      status: 'failed',
      content: '',
      error: error.message,
      usage: null,
    });

    // Retry (regenerate) works once the provider is back.
    fake.queueReply({ pieces: ['Back again.'] });
    const retry = await streamReply(base, user, id, { message: 'Summarise the pricing call', regenerate: true });
    expect(retry.events.at(-1)!.event).toBe('done');
    expect((await messagesOf(stack, user, id)).map((m) => m.status)).toEqual(['complete', 'complete']);
  },
);

test('a provider that drops the connection mid-reply leaves the partial text, marked failed', async () => {
  fake.queueReply({ pieces: ['Half', ' a'], hangUp: true });
  const id = await createConversation(stack, user);
  const { events } = await streamReply(base, user, id, { message: 'Tell me everything' });
  expect(deltas(events)).toEqual(['Half', ' a']);
  expect(events.at(-1)!.event).toBe('error');
  const [, reply] = await messagesOf(stack, user, id);
  expect(reply).toMatchObject({ status: 'failed', content: 'Half a' });
  expect(reply!.error).toMatch(/provider/i);
});

test('closing the stream stops the provider call and stores the partial reply as stopped', async () => {
  fake.queueReply({ pieces: Array.from({ length: 300 }, (_, i) => `word${i} `), delayMs: 30 });
  const id = await createConversation(stack, user);
  const before = fake.requests.length;
  const { events } = await streamReply(
    base,
    user,
    id,
    { message: 'Write a long essay' },
    (_event, all) => deltas(all).length >= 3,
  );
  expect(deltas(events)).toEqual(['word0 ', 'word1 ', 'word2 ']);

  const providerCall = fake.requests[before]!;
  // The provider saw its client leave before the reply was complete.
  expect(await providerCall.closed).toBe(true);

  let reply;
  for (let i = 0; i < 100 && !reply; i++) {
    reply = (await messagesOf(stack, user, id)).find((m) => m.role === 'assistant');
    if (!reply) await new Promise((r) => setTimeout(r, 50));
  }
  expect(reply).toMatchObject({ status: 'stopped', error: null });
  expect(reply!.content.startsWith('word0 word1 word2 ')).toBe(true);
  expect(reply!.content.split(' ').length).toBeLessThan(300);

  // The conversation is free again.
  fake.queueReply({ pieces: ['Short.'] });
  expect((await streamReply(base, user, id, { message: 'Shorter please' })).events.at(-1)!.event).toBe('done');
});

test("'built-in' picks the search assistant even with a model configured; a disabled model is refused", async () => {
  const before = fake.requests.length;
  const id = await createConversation(stack, user);
  const { events } = await streamReply(base, user, id, { message: 'competitor price', modelId: 'built-in' });
  expect(events[0]!.data).toMatchObject({ model: 'built-in', builtIn: true });
  expect(deltas(events).join('')).toContain('Can you match the competitor price of forty euros per seat?');
  expect(fake.requests.length).toBe(before);

  const disabled = await addChatModel(stack, fake.url, { isDefault: false, enabled: false, name: 'off' });
  const refused = await streamReply(base, user, id, { message: 'hello', modelId: disabled.modelId });
  expect(refused.status).toBe(400);
  expect(refused.json).toMatchObject({ message: 'Unknown or disabled chat model' });
  expect(providerId).not.toBe(disabled.providerId);
});

test('the key reaches the provider but no event: a replaced key is used from the next reply on', async () => {
  const host = await stack.tokenFor('HOST_ADMIN', null);
  const id = await createConversation(stack, user);
  fake.queueReply({ pieces: ['Old key.'] });
  await streamReply(base, user, id, { message: 'First question' });
  expect(fake.requests.at(-1)!.headers.authorization).toBe('Bearer sk-test-secret-9876');

  const patched = await stack.as(host, {
    method: 'PATCH',
    url: `/api/ai/config/provider/${providerId}`,
    payload: { apiKey: 'sk-rotated-key-1234' },
  });
  expect(patched.statusCode).toBe(200);
  await stack.settle();
  fake.queueReply({ pieces: ['New key.'] });
  const { events } = await streamReply(base, user, id, { message: 'Second question' });
  expect(events.at(-1)!.event).toBe('done');
  expect(fake.requests.at(-1)!.headers.authorization).toBe('Bearer sk-rotated-key-1234');

  // Every outbox of the stack (prompt's and chat's): neither key, nor any sealed form.
  const [{ sealed }] = (await stack.database.query<{ sealed: string }>(
    'select api_key_sealed as sealed from prompt.ai_providers where id = $1',
    [providerId],
  )) as [{ sealed: string }];
  const outboxes = await stack.database.query<{ envelope: unknown }>(
    'select envelope from prompt.outbox union all select envelope from chat.outbox',
  );
  expect(outboxes.length).toBeGreaterThan(0);
  const published = JSON.stringify(outboxes);
  for (const secret of ['sk-test-secret-9876', 'sk-rotated-key-1234', sealed]) expect(published).not.toContain(secret);
  expect(published).not.toContain('"v1:');
  // Nor does chat keep a copy of a key, sealed or not.
  const columns = await stack.database.query<{ column_name: string }>(
    "select column_name from information_schema.columns where table_schema = 'chat' and table_name = 'ai_providers'",
  );
  expect(columns.map((c) => c.column_name)).not.toContain('api_key_sealed');
});

test("a provider that redirects to another origin gets the question there without the provider's key", async () => {
  const { createServer } = await import('node:http');
  const redirector = createServer((req, res) => {
    res.writeHead(307, { location: `${fake.url.replace(/\/v1$/, '')}${req.url}` });
    res.end();
  });
  await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = redirector.address() as { port: number };
    const moved = await addChatModel(stack, `http://127.0.0.1:${port}/v1`, {
      apiKey: 'sk-must-not-move-5555',
      isDefault: false,
      name: 'moved',
    });
    const id = await createConversation(stack, user);
    fake.queueReply({ pieces: ['Answered elsewhere.'] });
    const { events } = await streamReply(base, user, id, { message: 'Where are you?', modelId: moved.modelId });
    expect(deltas(events)).toEqual(['Answered elsewhere.']);
    const arrived = fake.requests.at(-1)!;
    expect(arrived.path).toBe('/v1/chat/completions');
    expect(arrived.headers.authorization).toBeUndefined();
  } finally {
    await new Promise<void>((resolve) => redirector.close(() => resolve()));
  }
});
