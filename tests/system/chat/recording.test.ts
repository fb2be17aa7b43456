import { randomUUID } from 'node:crypto';
import type { FakeOpenAI } from '@earshot/ai/testing';
import type { TestStack } from '@earshot/kit/testing';
import type { AnalysisConversations, TranscriptCitationDto, Envelope } from '@earshot/contracts';
import { buildEnvelope } from '@earshot/kit';
import {
  addChatModel,
  createConversation,
  messagesOf,
  publish,
  stackWithFakeProvider,
  streamAbout,
  streamReply,
  transcriptCompleted,
  type SseEvent,
} from './helpers';

// Chat about one recording: the whole transcript as context when it fits, the most relevant parts
// when it does not; general questions that name a recording (or "the last call") scoped to it.
const ACME = randomUUID();
const GLOBEX = randomUUID();
const callFile = randomUUID();
const longFile = randomUUID();
const otherFile = randomUUID();

const CALL = [
  { speaker: 'speaker_0', start: 0, end: 4, text: 'Good morning, this is Dana from Earshot support.' },
  { speaker: 'speaker_1', start: 4.5, end: 9, text: 'Hello, our invoices arrive twice every month.' },
  { speaker: 'speaker_0', start: 65, end: 70, text: 'I will merge the duplicate billing accounts today.' },
];
// 400 segments of filler and one that matters: far more than a small model's context.
const LONG = Array.from({ length: 400 }, (_, i) => ({
  speaker: i % 2 ? 'Customer' : 'Agent',
  start: i * 10,
  end: i * 10 + 8,
  text:
    i === 333
      ? 'The zeppelin delivery to Tartu is late by a week.'
      : `Routine remark number ${i} about nothing in particular at all.`,
}));

let stack: TestStack;
let fake: FakeOpenAI;
let base: string;
let close: () => Promise<void>;
let user: string;
let otherUser: string;
let smallModelId: string;

const system = { type: 'system' as const, id: null };
/** The messages the fake provider was sent for the last reply, as one text. */
const lastPrompt = () =>
  fake.requests
    .at(-1)!
    .body!.messages!.map((m) => m.content)
    .join('\n');
const doneOf = (events: SseEvent[]) => events.at(-1)!.data as { messageId: string; citations: TranscriptCitationDto[] };

beforeAll(async () => {
  ({ stack, fake, base, close } = await stackWithFakeProvider());
  user = await stack.tokenFor('USER', ACME);
  otherUser = await stack.tokenFor('USER', GLOBEX);
  await addChatModel(stack, fake.url, { name: 'fake-chat' });
  // 1,000 tokens: a transcript may take 600 of them, far less than the long recording.
  ({ modelId: smallModelId } = await addChatModel(stack, fake.url, {
    name: 'fake-small',
    isDefault: false,
    contextSize: 1000,
  }));
  await publish(stack, ...transcriptCompleted(ACME, callFile, 'call.wav', CALL));
  await publish(stack, ...transcriptCompleted(ACME, longFile, 'warehouse-review.wav', LONG));
  await publish(
    stack,
    ...transcriptCompleted(GLOBEX, otherFile, 'globex-secret.wav', [
      { speaker: 'Agent', start: 1, end: 3, text: 'The merger closes on Friday.' },
    ]),
  );
}, 60_000);
afterAll(async () => close());

test('a question about one recording starts a conversation bound to it, and the model gets the whole transcript', async () => {
  fake.queueReply({ pieces: ['Billing arrives twice [2]; ', 'Dana will merge the accounts [3].'] });
  const { status, events } = await streamAbout(base, user, { fileId: callFile, message: 'Summarize this recording' });
  expect(status).toBe(200);
  const start = events[0]!.data as { conversationId: string };
  expect(events.at(-1)!.event).toBe('done');

  const prompt = lastPrompt();
  expect(prompt).toContain('The whole transcript of the recording "call.wav" (3 segments, in order):');
  for (const [n, line] of [
    [1, 'Speaker 1 at 0:00: Good morning'],
    [2, 'Speaker 2 at 0:04: Hello, our invoices'],
    [3, 'Speaker 1 at 1:05: I will merge'],
  ] as const) {
    expect(prompt).toContain(`[${n}] ${line}`);
  }
  // The sources are the segments the answer cites, each opening the viewer at its moment.
  expect(doneOf(events).citations.map((c) => [c.speaker, c.start, c.link])).toEqual([
    ['Speaker 2', 4.5, `/transcripts/${callFile}?t=4`],
    ['Speaker 1', 65, `/transcripts/${callFile}?t=65`],
  ]);

  const listed = await stack.as(user, { method: 'GET', url: `/api/chat/conversationsByAnalysis/${callFile}` });
  expect(listed.statusCode).toBe(200);
  const about = listed.json() as AnalysisConversations;
  expect(about.transcript).toEqual({ fileId: callFile, fileName: 'call.wav' });
  expect(about.items.map((c) => [c._id, c.fileId, c.title])).toEqual([
    [start.conversationId, callFile, 'Summarize this recording'],
  ]);

  // The conversation goes on about the same recording, on either stream route.
  fake.queueReply({ pieces: ['Twice a month [2].'] });
  const again = await streamReply(base, user, start.conversationId, { message: 'How often do the invoices come?' });
  expect(again.events.at(-1)!.event).toBe('done');
  expect(lastPrompt()).toContain('The whole transcript of the recording "call.wav"');
  expect(await messagesOf(stack, user, start.conversationId)).toHaveLength(4);
});

test("a recording longer than the model's context gives it the most relevant parts, within the budget", async () => {
  fake.queueReply({ pieces: ['Late by a week.'] });
  const { events } = await streamAbout(base, user, {
    fileId: longFile,
    message: 'What happened with the zeppelin delivery?',
    modelId: smallModelId,
  });
  expect(events.at(-1)!.event).toBe('done');
  const sources = fake.requests
    .at(-1)!
    .body!.messages!.find((m) => m.content.includes('warehouse-review.wav'))!.content;
  expect(sources).toMatch(
    /^Excerpts of the transcript of the recording "warehouse-review.wav", in order: .* of its 400 segments/,
  );
  expect(sources).toContain('Customer at 55:30: The zeppelin delivery to Tartu is late by a week.');
  const lines = sources.split('\n').slice(1);
  expect(lines.length).toBeGreaterThan(3);
  expect(lines.length).toBeLessThan(400);
  // About four characters a token: within the 600 tokens a transcript may take of 1,000.
  expect(lines.join('\n').length / 4).toBeLessThanOrEqual(600);
});

test("another company's recording is a 404 on every route, and so is a conversation about another recording", async () => {
  const missing = await stack.as(user, { method: 'GET', url: `/api/chat/conversationsByAnalysis/${otherFile}` });
  expect(missing.statusCode).toBe(404);
  expect((await streamAbout(base, user, { fileId: otherFile, message: 'What closes on Friday?' })).status).toBe(404);
  expect(
    (await stack.as(user, { method: 'POST', url: '/api/chat/conversations', payload: { fileId: otherFile } }))
      .statusCode,
  ).toBe(404);
  expect(
    (await stack.as(user, { method: 'GET', url: `/api/chat/conversationsByAnalysis/${randomUUID()}` })).statusCode,
  ).toBe(404);

  const general = await createConversation(stack, user);
  expect((await streamAbout(base, user, { fileId: callFile, conversationId: general, message: 'Hi' })).status).toBe(
    404,
  );
  // Its owner sees it; a colleague elsewhere does not, even with the conversation's id.
  const theirs = await streamAbout(base, otherUser, {
    fileId: otherFile,
    message: 'What closes?',
    modelId: 'built-in',
  });
  const theirId = (theirs.events[0]!.data as { conversationId: string }).conversationId;
  expect((await streamAbout(base, user, { fileId: otherFile, conversationId: theirId, message: 'Hi' })).status).toBe(
    404,
  );
});

test('"Summarize the call.wav recording" in a general chat sends that recording\'s transcript', async () => {
  fake.queueReply({ pieces: ['A billing call.'] });
  const id = await createConversation(stack, user);
  const { events } = await streamReply(base, user, id, { message: 'Summarize the call.wav recording' });
  expect(events.at(-1)!.event).toBe('done');
  const prompt = lastPrompt();
  expect(prompt).toContain('The whole transcript of the recording "call.wav"');
  expect(prompt).toContain('I will merge the duplicate billing accounts today.');
  expect(prompt).not.toContain('zeppelin');
});

test('without a model, the built-in assistant quotes the recording and says it cannot summarise', async () => {
  const { events } = await streamAbout(base, user, {
    fileId: callFile,
    message: 'Summarize this recording',
    modelId: 'built-in',
  });
  const text = events
    .filter((e) => e.event === 'delta')
    .map((e) => e.data.text as string)
    .join('');
  expect(text).toContain("I'm Earshot's built-in search assistant, not a language model");
  expect(text).toContain('I cannot summarise *call.wav*: I can only quote it.');
  expect(text).toContain(`**Speaker 1** at [1:05](/transcripts/${callFile}?t=65)`);
  expect(doneOf(events).citations.every((c) => c.fileId === callFile)).toBe(true);
});

test('"the last call" is the newest completed recording, and a client\'s name finds its recordings', async () => {
  const newest = randomUUID();
  const later = (envelopes: Envelope[]) => envelopes.map((e) => ({ ...e, occurredAt: '2099-01-01T00:00:00.000Z' }));
  await publish(
    stack,
    ...later(
      transcriptCompleted(ACME, newest, 'monday.wav', [
        { speaker: 'Agent', start: 2, end: 5, text: 'Welcome to the Monday standup.' },
      ]),
    ),
  );
  const id = await createConversation(stack, user);
  const last = await streamReply(base, user, id, { message: 'What was said in the last call?', modelId: 'built-in' });
  expect(doneOf(last.events).citations.map((c) => c.fileId)).toEqual([newest]);

  const client = randomUUID();
  await publish(
    stack,
    buildEnvelope({
      type: 'client.created',
      companyId: ACME,
      actor: system,
      data: {
        id: client,
        after: {
          name: 'Nordwind Logistics',
          organisation: null,
          email: null,
          phone: null,
          externalId: null,
          notes: null,
          ownerId: null,
        },
      },
    }),
    buildEnvelope({
      type: 'transcript.client_linked',
      companyId: ACME,
      actor: system,
      data: { id: randomUUID(), fileId: longFile, before: { clientId: null }, after: { clientId: client } },
    }),
  );
  const byClient = await streamReply(base, user, id, {
    message: 'Which routine remark did Nordwind Logistics make?',
    modelId: 'built-in',
  });
  const cited = doneOf(byClient.events).citations;
  expect(cited.length).toBeGreaterThan(0);
  expect(cited.every((c) => c.fileId === longFile)).toBe(true);
});
