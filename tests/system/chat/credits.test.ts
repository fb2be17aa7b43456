import { randomUUID } from 'node:crypto';
import type { FakeOpenAI } from '@earshot/ai/testing';
import { CREDIT_CODES, CREDIT_MESSAGES, type Envelope } from '@earshot/contracts';
import { ScriptedCreditGate, type TestStack } from '@earshot/kit/testing';
import {
  addChatModel,
  createConversation,
  deltas,
  messagesOf,
  publish,
  stackWithFakeProvider,
  streamAbout,
  streamReply,
  transcriptCompleted,
} from './helpers';

/**
 * A model's reply costs credits: the chat service asks the credit gate before anything is stored
 * or streamed and before the provider hears of it. The tenant service is not mounted here; the
 * gate it would serve in this process is served by the test, answering as the test says.
 */
const ACME = randomUUID();
const callFile = randomUUID();

let stack: TestStack;
let fake: FakeOpenAI;
let base: string;
let close: () => Promise<void>;
let user: string;
let userId: string;
let modelId: string;
const credits = new ScriptedCreditGate();
const published: Envelope[] = [];

beforeAll(async () => {
  ({ stack, fake, base, close } = await stackWithFakeProvider(credits));
  await stack.bus.subscribe({ group: 'spy', topics: ['earshot.chat'], handle: async (e) => void published.push(e) });
  userId = randomUUID();
  user = await stack.tokenFor('USER', ACME, userId);
  ({ modelId } = await addChatModel(stack, fake.url, { name: 'fake-chat' }));
  await publish(
    stack,
    ...transcriptCompleted(ACME, callFile, 'call.wav', [
      { speaker: 'Agent', start: 0, end: 4, text: 'Good morning, how can I help?' },
      { speaker: 'Customer', start: 4.5, end: 9, text: 'Our invoices arrive twice.' },
    ]),
  );
}, 180_000);
afterAll(async () => close());
beforeEach(() => credits.reset());

const finished = (messageId: unknown) =>
  published.find((e) => e.type === 'chat_reply.finished' && e.data.messageId === messageId);

test.each([
  [CREDIT_CODES.CREDITS_EXHAUSTED, 402],
  [CREDIT_CODES.USER_CAP_REACHED, 402],
  [CREDIT_CODES.MODEL_NOT_PRICED, 409],
] as const)('%s: %i with the message before any stream, storage or provider call', async (code, status) => {
  credits.refusal = code;
  const id = await createConversation(stack, user);
  const calls = fake.requests.length;
  const res = await streamReply(base, user, id, { message: 'What did the customer say?' });
  expect(res.status).toBe(status);
  expect(res.contentType).toMatch(/^application\/json/);
  expect(res.json).toEqual({ message: CREDIT_MESSAGES[code], code });
  expect(fake.requests.length).toBe(calls);
  expect(credits.asked).toEqual([{ companyId: ACME, userId, feature: 'chat', modelId }]);
  // Not even the question is kept, and the conversation is free for the next try.
  expect(await messagesOf(stack, user, id)).toEqual([]);
  credits.refusal = null;
  fake.queueReply({ pieces: ['Twice.'] });
  expect(deltas((await streamReply(base, user, id, { message: 'What did the customer say?' })).events)).toEqual([
    'Twice.',
  ]);
});

test('a question about a recording is refused the same way, before its conversation is made', async () => {
  credits.refusal = CREDIT_CODES.CREDITS_EXHAUSTED;
  const calls = fake.requests.length;
  const res = await streamAbout(base, user, { fileId: callFile, message: 'Summarize this recording' });
  expect(res.status).toBe(402);
  expect(res.json).toEqual({ message: CREDIT_MESSAGES.CREDITS_EXHAUSTED, code: 'CREDITS_EXHAUSTED' });
  expect(fake.requests.length).toBe(calls);
  expect(credits.asked).toEqual([{ companyId: ACME, userId, feature: 'chat', modelId }]);
  const about = await stack.as(user, { method: 'GET', url: `/api/chat/conversationsByAnalysis/${callFile}` });
  expect(about.statusCode).toBe(200);
  expect(about.json().items).toEqual([]);
});

test('a question about a recording in a new conversation asks once, then is answered there', async () => {
  fake.queueReply({ pieces: ['They arrive twice.'] });
  const res = await streamAbout(base, user, { fileId: callFile, message: 'What is the complaint?' });
  expect(res.status).toBe(200);
  expect(deltas(res.events)).toEqual(['They arrive twice.']);
  expect(credits.asked).toEqual([{ companyId: ACME, userId, feature: 'chat', modelId }]);
  const conversationId = res.events[0]!.data.conversationId as string;
  expect((await messagesOf(stack, user, conversationId)).map((m) => m.role)).toEqual(['user', 'assistant']);
});

test('the built-in assistant is free: it answers with no credits left, without asking', async () => {
  credits.refusal = CREDIT_CODES.CREDITS_EXHAUSTED;
  const id = await createConversation(stack, user);
  const { status, events } = await streamReply(base, user, id, { message: 'invoices twice', modelId: 'built-in' });
  expect(status).toBe(200);
  expect(events.at(-1)!.event).toBe('done');
  expect(credits.asked).toEqual([]);
  await stack.settle();
  expect(finished(events.at(-1)!.data.messageId)?.data).toMatchObject({ builtIn: true, modelId: null });
});

test('a reply that started with credits finishes when they run out meanwhile, and its event names the model', async () => {
  fake.queueReply({
    pieces: ['The customer', ' gets', ' every invoice', ' twice.'],
    delayMs: 20,
    usage: { prompt_tokens: 50, completion_tokens: 4, total_tokens: 54 },
  });
  const id = await createConversation(stack, user);
  const { status, events } = await streamReply(base, user, id, { message: 'What is wrong?' }, (event) => {
    // The first piece arrived: the company's credits are gone from now on.
    if (event.event === 'delta') credits.refusal = CREDIT_CODES.CREDITS_EXHAUSTED;
  });
  expect(status).toBe(200);
  expect(deltas(events)).toEqual(['The customer', ' gets', ' every invoice', ' twice.']);
  const done = events.at(-1)!;
  expect(done).toMatchObject({ event: 'done', data: { status: 'complete' } });
  await stack.settle();
  expect(finished(done.data.messageId)?.data).toMatchObject({
    modelId,
    builtIn: false,
    status: 'complete',
    usage: { promptTokens: 50, completionTokens: 4 },
  });
  // The next question is the one refused.
  expect((await streamReply(base, user, id, { message: 'And now?' })).status).toBe(402);
});

test('the platform administrator without a company spends no company credits: never asked', async () => {
  credits.refusal = CREDIT_CODES.CREDITS_EXHAUSTED;
  const host = await stack.tokenFor('HOST_ADMIN', null);
  const id = await createConversation(stack, host);
  fake.queueReply({ pieces: ['Platform answer.'] });
  const { status, events } = await streamReply(base, host, id, { message: 'Anything?' });
  expect(status).toBe(200);
  expect(deltas(events)).toEqual(['Platform answer.']);
  expect(credits.asked).toEqual([]);
});
