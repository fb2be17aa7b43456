import { randomUUID } from 'node:crypto';
import type { FakeOpenAI } from '@earshot/ai/testing';
import type { CompanyPolicies, ConversationDto } from '@earshot/contracts';
import { buildEnvelope } from '@earshot/kit';
import type { TestStack } from '@earshot/kit/testing';
import {
  addChatModel,
  createConversation,
  messagesOf,
  publish,
  stackWithFakeProvider,
  streamReply,
  transcriptCompleted,
} from './helpers';

// With a company's redaction on, a card number in a chat question is hidden before the question
// is stored, titles the conversation or reaches the provider, in every form a person may type it;
// the stream's start tells the person how many were hidden. Earlier messages stored before
// redaction was turned on reach the provider redacted too. A company with redaction off keeps
// what was typed.

const REDACTING = randomUUID();
const PLAIN = randomUUID();
/** Redaction off at first, turned on later. */
const LATER = randomUUID();
const CARD = ['4539', '1488', '0343', '6467'];
const SECRET = new RegExp(`${CARD.join('|')}|[０-９]`);
const LABEL = '[card number]';

const FORMS: [string, string][] = [
  ['glued to a word and a comma', `card:${CARD.join('')},`],
  ['glued to a sign', `card#${CARD.join('')}`],
  ['spaced and glued to a word', `card:${CARD.join(' ')}`],
  ['joined by Unicode dashes', `${CARD[0]}\u2010${CARD[1]}\u2013${CARD[2]}\u2014${CARD[3]}`],
  ['joined by other dashes', `${CARD[0]}\u2011${CARD[1]}\u2012${CARD[2]}\u2015${CARD[3]}`],
  ['joined by minus signs', CARD.join('\u2212')],
  ['in full-width digits', CARD.join('').replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)))],
];

let stack: TestStack;
let fake: FakeOpenAI;
let base: string;
let close: () => Promise<void>;
const tokens: Record<string, string> = {};

const policies = (redaction: CompanyPolicies['redaction']): CompanyPolicies => ({
  redaction,
  keepOriginal: false,
  encryption: false,
  retention: { recordingsDays: null, chatsDays: null, auditDays: null },
});

async function setRedaction(companyId: string, redaction: CompanyPolicies['redaction']): Promise<void> {
  await publish(
    stack,
    buildEnvelope({
      type: 'company.policies_changed',
      companyId,
      actor: { type: 'system', id: null },
      data: { id: companyId, before: policies('off'), after: policies(redaction) },
    }),
  );
}

/** Everything the provider was sent, as text. */
const sentToProvider = () => JSON.stringify(fake.requests.map((r) => r.body));

beforeAll(async () => {
  ({ stack, fake, base, close } = await stackWithFakeProvider());
  await addChatModel(stack, fake.url);
  fake.setReply({ pieces: ['Noted.'] });
  for (const company of [REDACTING, PLAIN, LATER]) tokens[company] = await stack.tokenFor('USER', company);
  await setRedaction(REDACTING, 'text');
  await publish(
    stack,
    ...transcriptCompleted(REDACTING, randomUUID(), 'billing-call.wav', [
      { speaker: 'Customer', start: 1, end: 4, text: 'I want to update my card on file please' },
    ]),
  );
}, 60_000);
afterAll(async () => close());

test.each(FORMS)(
  'a card number %s is hidden in the question stored, its title, what the provider gets, and the person is told',
  async (_form, typed) => {
    const id = await createConversation(stack, tokens[REDACTING]!);
    const before = fake.requests.length;
    const { events } = await streamReply(base, tokens[REDACTING]!, id, { message: `Update my card ${typed} today` });
    expect(events.map((e) => e.event)).toEqual(['start', 'delta', 'done']);
    const start = events[0]!.data as { question: string; redacted: number; title: string };
    expect(start.redacted).toBe(1);
    expect(start.question).toMatch(/^Update my card .*\[card number\].* today$/);
    expect(start.title).toContain(LABEL);

    const [question] = await messagesOf(stack, tokens[REDACTING]!, id);
    expect(question!.content).toBe(start.question);
    const provider = JSON.stringify(fake.requests.slice(before).map((r) => r.body));
    expect(provider).toContain(LABEL);
    expect(provider).not.toMatch(SECRET);
    const stored = await stack.database.query(
      `select m.content, c.title from chat.messages m join chat.conversations c on c.id = m.conversation_id where c.id = $1`,
      [id],
    );
    expect(stored.length).toBe(2);
    expect(JSON.stringify(stored)).not.toMatch(SECRET);
  },
);

test('regenerating with a corrected question, naming or renaming the conversation cannot put the number back', async () => {
  const token = tokens[REDACTING]!;
  await createConversation(stack, token, `About ${CARD.join('\u2013')}`);
  expect((await stack.as(token, { method: 'GET', url: '/api/chat/conversations' })).body).not.toMatch(SECRET);
  const id = await createConversation(stack, token);
  await streamReply(base, token, id, { message: 'What is on file?' });
  const { events } = await streamReply(base, token, id, {
    message: `What is on file? card#${CARD.join('')}`,
    regenerate: true,
  });
  expect(events[0]!.data).toMatchObject({ redacted: 1, question: `What is on file? card#${LABEL}` });
  const renamed = await stack.as(token, {
    method: 'PATCH',
    url: `/api/chat/conversations/${id}`,
    payload: { title: `Card ${CARD.join(' ')}` },
  });
  expect(renamed.statusCode).toBe(200);
  expect((renamed.json() as ConversationDto).title).toBe(`Card ${LABEL}`);
  expect(JSON.stringify(await messagesOf(stack, token, id))).not.toMatch(SECRET);
  expect(sentToProvider().includes(`card#${LABEL}`)).toBe(true);
});

test('messages stored before redaction was turned on reach the provider redacted once it is on', async () => {
  const token = tokens[LATER]!;
  const id = await createConversation(stack, token);
  const typed = `card:${CARD.join(' ')}`;
  const first = await streamReply(base, token, id, { message: `My card is ${typed}` });
  expect(first.events[0]!.data).toMatchObject({ redacted: 0, question: `My card is ${typed}` });
  expect(JSON.stringify(fake.requests.at(-1)!.body)).toMatch(SECRET);

  await setRedaction(LATER, 'text');
  await streamReply(base, token, id, { message: 'Which card did I give?' });
  const history = fake.requests.at(-1)!.body!.messages!.filter((m) => m.role === 'user');
  expect(history.map((m) => m.content)).toEqual([`My card is card:${LABEL}`, 'Which card did I give?']);
});

test('a company with redaction off keeps the question as typed, and the provider gets it so', async () => {
  const token = tokens[PLAIN]!;
  const id = await createConversation(stack, token);
  const typed = `Update my card card:${CARD.join('')}, today`;
  const { events } = await streamReply(base, token, id, { message: typed });
  expect(events[0]!.data).toMatchObject({ redacted: 0, question: typed });
  expect((await messagesOf(stack, token, id))[0]!.content).toBe(typed);
  expect(fake.requests.at(-1)!.body!.messages!.at(-1)).toEqual({ role: 'user', content: typed });
});
