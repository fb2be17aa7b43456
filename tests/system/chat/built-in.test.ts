import { randomUUID } from 'node:crypto';
import { buildEnvelope } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import type { TranscriptCitationDto } from '@earshot/contracts';
import { promptService } from '@earshot/prompt-service';
import { chatService } from '@earshot/chat-service';
import {
  createConversation,
  deltas,
  listen,
  messagesOf,
  publish,
  streamReply,
  transcriptCompleted,
  type SseEvent,
} from './helpers';

const ACME = randomUUID();
const GLOBEX = randomUUID();
const TOPICS = ['invoice', 'delivery', 'password', 'warranty', 'upgrade', 'cancellation', 'discount', 'installation'];

let stack: TestStack;
let base: string;
let user: string;
let globexUser: string;
let host: string;
/** The one Acme recording where the customer speaks about the refrigerated lorry. */
const needleFile = randomUUID();
const globexFile = randomUUID();

/** 200 Acme recordings of ordinary calls, one of which holds the passage asked about. */
async function seed() {
  const envelopes = [];
  for (let i = 0; i < 200; i++) {
    const topic = TOPICS[i % TOPICS.length]!;
    const fileId = i === 137 ? needleFile : randomUUID();
    const segments = [
      { speaker: 'Agent', start: 0, end: 4, text: `Thank you for calling, how can I help with your ${topic} today?` },
      {
        speaker: 'Customer',
        start: 4.5,
        end: 12,
        text: `I have a question about my ${topic}, reference number ${1000 + i}.`,
      },
      { speaker: 'Agent', start: 12.5, end: 20, text: `Let me look at the ${topic} details on your account.` },
    ];
    if (fileId === needleFile) {
      segments.push({
        speaker: 'Customer',
        start: 95.2,
        end: 104,
        text: 'The refrigerated lorry arrived two hours late and the frozen salmon had thawed.',
      });
    }
    envelopes.push(...transcriptCompleted(ACME, fileId, `call-${i}.wav`, segments));
  }
  // Another company's recording says the same kind of thing: Acme must never see it.
  envelopes.push(
    ...transcriptCompleted(GLOBEX, globexFile, 'globex-secret.wav', [
      {
        speaker: 'Customer',
        start: 30,
        end: 40,
        text: 'Our refrigerated lorry with frozen salmon is the Globex secret shipment.',
      },
    ]),
  );
  await publish(stack, ...envelopes);
}

beforeAll(async () => {
  stack = await createTestStack([promptService, chatService]);
  base = await listen(stack);
  user = await stack.tokenFor('USER', ACME);
  globexUser = await stack.tokenFor('USER', GLOBEX);
  host = await stack.tokenFor('HOST_ADMIN', null);
  await seed();
}, 120_000);
afterAll(async () => stack.close());

async function ask(token: string, message: string) {
  const id = await createConversation(stack, token);
  const reply = await streamReply(base, token, id, { message });
  return {
    id,
    ...reply,
    text: deltas(reply.events).join(''),
    done: reply.events.find((e) => e.event === 'done')?.data,
  };
}

const citationsOf = (done: SseEvent['data'] | undefined) => (done?.citations ?? []) as TranscriptCitationDto[];

test('finds the right passage among 200 transcripts and quotes it with speaker, time and link', async () => {
  const { status, contentType, events, text, done, id } = await ask(user, 'What happened with the refrigerated lorry?');
  expect(status).toBe(200);
  expect(contentType).toMatch(/^text\/event-stream/);
  expect(events[0]).toMatchObject({ event: 'start', data: { model: 'built-in', builtIn: true } });
  expect(events.at(-1)!.event).toBe('done');
  // Streamed in pieces, not one block.
  expect(deltas(events).length).toBeGreaterThan(1);

  expect(text).toContain("Earshot's built-in search assistant");
  expect(text).toContain('not a language model');
  expect(text).toContain('AI Configuration');
  const citations = citationsOf(done);
  expect(citations[0]).toEqual({
    fileId: needleFile,
    fileName: 'call-137.wav',
    speaker: 'Customer',
    start: 95.2,
    text: 'The refrigerated lorry arrived two hours late and the frozen salmon had thawed.',
    link: `/transcripts/${needleFile}?t=95`,
  });
  expect(text).toContain(`**Customer** at [1:35](/transcripts/${needleFile}?t=95) in *call-137.wav*`);
  expect(text).toContain('The refrigerated lorry arrived two hours late');

  // Stored as streamed.
  const [, reply] = await messagesOf(stack, user, id);
  expect(reply).toMatchObject({
    role: 'assistant',
    content: text,
    status: 'complete',
    model: 'built-in',
    usage: null,
    error: null,
  });
  expect(reply!.citations).toEqual(citations);
});

test("never returns another company's text, and says so when nothing matches", async () => {
  for (const question of ['Globex secret shipment', 'refrigerated lorry frozen salmon']) {
    const { text, done } = await ask(user, question);
    expect(text).not.toContain('globex-secret.wav');
    expect(text).not.toContain('Our refrigerated lorry');
    expect(citationsOf(done).map((c) => c.fileId)).not.toContain(globexFile);
  }
  const nothing = await ask(user, 'Globex secret');
  expect(citationsOf(nothing.done)).toEqual([]);
  expect(nothing.text).toContain("I found nothing in your company's transcripts");
  expect(nothing.text).toContain("Earshot's built-in search assistant");

  // Globex finds its own and only its own.
  const theirs = await ask(globexUser, 'refrigerated lorry');
  expect(citationsOf(theirs.done).map((c) => c.fileId)).toEqual([globexFile]);
});

test('a question whose words are not all in one passage still finds the passages with most of them', async () => {
  const { done } = await ask(user, 'Did anyone complain that salmon thawed on the submarine?');
  expect(citationsOf(done)[0]!.fileId).toBe(needleFile);
  expect(citationsOf(done).length).toBeLessThanOrEqual(5);
});

test('a platform administrator without a company searches every company', async () => {
  const { done, text } = await ask(host, 'Globex secret shipment');
  expect(citationsOf(done)[0]!.fileId).toBe(globexFile);
  expect(text).toContain('of the transcripts');
});

test('corrections, deletions and redelivered events keep the search copy right', async () => {
  const fileId = randomUUID();
  const completed = transcriptCompleted(ACME, fileId, 'edit-me.wav', [
    { speaker: 'Agent', start: 61, end: 65, text: 'The parcel went to Tallinn' },
  ]);
  await publish(stack, ...completed, ...completed);
  expect(citationsOf((await ask(user, 'Tallinn parcel')).done).map((c) => c.fileId)).toEqual([fileId]);

  const actor = { type: 'user' as const, id: randomUUID() };
  await publish(
    stack,
    buildEnvelope({
      type: 'transcript.word_edited',
      companyId: ACME,
      actor,
      data: {
        id: randomUUID(),
        fileId,
        wordId: 'w-4',
        segmentId: 's-0',
        segmentText: 'The parcel went to Riga',
        before: { text: 'Tallinn' },
        after: { text: 'Riga' },
      },
    }),
  );
  expect(citationsOf((await ask(user, 'Tallinn')).done)).toEqual([]);
  expect(citationsOf((await ask(user, 'Riga parcel')).done)[0]).toMatchObject({
    fileId,
    text: 'The parcel went to Riga',
    start: 61,
  });

  await publish(
    stack,
    buildEnvelope({ type: 'transcript.deleted', companyId: ACME, actor, data: { id: randomUUID(), fileId } }),
  );
  expect(citationsOf((await ask(user, 'Riga parcel')).done)).toEqual([]);
  const rows = await stack.database.query<{ n: string }>(
    'select count(*)::text as n from chat.transcript_segments where file_id = $1',
    [fileId],
  );
  expect(rows[0]!.n).toBe('0');
});

test('older transcript.completed versions are upcast and applied, never dropped', async () => {
  const fileId = randomUUID();
  const envelopeOf = (version: number, data: Record<string, unknown>) => ({
    id: randomUUID(),
    type: 'transcript.completed',
    version,
    occurredAt: new Date().toISOString(),
    companyId: ACME,
    actor: { type: 'system' as const, id: null },
    data,
  });
  const facts = { id: randomUUID(), fileId, engine: 'test', duration: 9, speakers: 1, words: 5 };
  // v2 carried the text inline: it becomes searchable.
  await publish(
    stack,
    envelopeOf(2, {
      ...facts,
      fileName: 'old-format.wav',
      segments: [{ segmentId: 's-0', speaker: 'Agent', start: 3, end: 8, text: 'The hovercraft reached Bergen' }],
    }),
  );
  expect(citationsOf((await ask(user, 'hovercraft Bergen')).done)[0]).toMatchObject({
    fileId,
    text: 'The hovercraft reached Bergen',
  });
  // v1 carried no text: the transcript it announces replaced the earlier one, whose text must go.
  await publish(stack, envelopeOf(1, facts));
  expect(citationsOf((await ask(user, 'hovercraft Bergen')).done)).toEqual([]);
  const parked = await stack.database.query('select event_id from chat.parked_events');
  expect(parked).toEqual([]);
});
