import { randomUUID } from 'node:crypto';
import { strFromU8, unzipSync } from 'fflate';
import { EXPORT_FORMATS, eventDefinition, SYSTEM_ACTOR, type CompanyPolicies, type Envelope } from '@earshot/contracts';
import { buildEnvelope } from '@earshot/kit';
import type { TestStack } from '@earshot/kit/testing';
import { startFakeOpenAI, type FakeOpenAI } from '@earshot/ai/testing';
import { chatService } from '@earshot/chat-service';
import { analysisQueue, promptService } from '@earshot/prompt-service';
import { addChatModel, listen, streamAbout } from '../chat/helpers';
import {
  idsOut,
  listenOnLoopback,
  makeTones,
  speechProviderStack,
  upload,
  waitForStatus,
  wordsProvider,
} from './helpers';

// Events, the chat and prompt services' copies, search, exports and AI providers only ever receive
// redacted text, so a card number spoken in a call leaks nowhere. One stack runs it end to end: a
// recording whose words carry a card number is transcribed under policy text_audio by a stand-in
// speech provider, then the chat and prompt services take their copies from the events, a chat
// about the recording and an analysis run go to the fake OpenAI-compatible chat provider (which
// records every request body), and the search and every export format are asked. None of them holds
// a digit group of the card; each holds the label, so the text did reach it.

const ACME = randomUUID();
const CARD = ['4539', '1488', '0343', '6467'];
const SECRET = new RegExp(CARD.join('|'));
const SAID = ['hello', 'my', 'card', 'number', 'is', ...CARD, 'thank', 'you'];
const LABEL = '[card number]';

const speech = wordsProvider(SAID);

let stack: TestStack;
let chat: FakeOpenAI;
let base: string;
let admin: string;
let fileId: string;

/** Everything the chat provider was sent for chat completions (the prompts), as one text. */
const prompts = (from = 0) =>
  chat.requests
    .slice(from)
    .filter((r) => r.path === '/v1/chat/completions')
    .flatMap((r) => r.body?.messages ?? [])
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');

beforeAll(async () => {
  chat = await startFakeOpenAI();
  stack = await speechProviderStack(
    await listenOnLoopback(speech),
    { AI_ALLOW_PRIVATE_URLS: 'true', AI_TIMEOUT_MS: '10000' },
    undefined,
    [promptService, chatService],
  );
  base = await listen(stack);
  admin = await stack.tokenFor('ADMIN', ACME);
  await addChatModel(stack, chat.url, { name: 'fake-chat' });
  const policies = (redaction: CompanyPolicies['redaction']): CompanyPolicies => ({
    redaction,
    keepOriginal: false,
    encryption: false,
    retention: { recordingsDays: null, chatsDays: null, auditDays: null },
  });
  const envelope = buildEnvelope({
    type: 'company.policies_changed',
    companyId: ACME,
    actor: SYSTEM_ACTOR,
    data: { id: ACME, before: policies('off'), after: policies('text_audio') },
  }) as Envelope;
  await stack.bus.publish([{ topic: eventDefinition(envelope.type).topic, key: ACME, envelope }]);
  await stack.settle();
  fileId = await upload(stack, admin, makeTones([{ start: 0.1, length: 2.6 }], 3), 'card-call.wav');
  expect((await waitForStatus(stack, admin, fileId)).status).toBe('completed');
}, 120_000);
afterAll(async () => {
  await stack.close();
  await chat.close();
  await new Promise((resolve) => speech.close(resolve));
});

test('the chat and prompt services’ copies of the transcript hold the label, not the card', async () => {
  for (const table of ['chat.transcript_segments', 'prompt.transcript_segments']) {
    const rows = JSON.stringify(await stack.database.query(`select * from ${table} where file_id = $1`, [fileId]));
    expect(rows).toContain(LABEL);
    expect(idsOut(rows)).not.toMatch(SECRET);
  }
});

test('a chat about the recording sends the provider the redacted transcript only', async () => {
  const from = chat.requests.length;
  chat.queueReply({ pieces: ['The customer gave a card number [1].'] });
  const { status, events } = await streamAbout(base, admin, {
    fileId,
    message: 'Which numbers did the customer say? Repeat them digit by digit.',
  });
  expect(status).toBe(200);
  expect(events.at(-1)!.event).toBe('done');
  const sent = prompts(from);
  expect(sent).toContain(LABEL);
  expect(idsOut(sent)).not.toMatch(SECRET);
});

test('an analysis run sends the provider the redacted transcript only', async () => {
  const host = await stack.tokenFor('HOST_ADMIN', null);
  const prompt = await stack.as(host, {
    method: 'POST',
    url: '/api/prompts',
    payload: {
      name: 'Card check',
      prompt: 'Did the customer give payment details?\n{{transcript}}',
      type: 'transcriptAnalysis',
      expectedFormat: [{ name: 'summary', type: 'string', description: 'One sentence' }],
      scope: 'global',
      isGlobal: true,
    },
  });
  expect(prompt.statusCode).toBe(201);
  const from = chat.requests.length;
  chat.queueReply({ pieces: [JSON.stringify({ summary: 'Yes: a card number, redacted.' })] });
  const started = await stack.as(admin, {
    method: 'POST',
    url: '/api/analysis/transcripts',
    payload: { fileId, promptId: prompt.json()._id },
  });
  expect(started.statusCode).toBe(202);
  await analysisQueue(stack.database)!.idle();
  await stack.settle();
  const runs = (await stack.as(admin, { method: 'GET', url: `/api/analysis/transcripts?fileId=${fileId}` })).json() as {
    status: string;
    error: string | null;
  }[];
  expect(runs.map((r) => [r.status, r.error ?? null])).toEqual([['completed', null]]);
  const sent = prompts(from);
  expect(sent).toContain(LABEL);
  expect(idsOut(sent)).not.toMatch(SECRET);
});

test('searching for the card’s digits finds nothing; the label finds the recording', async () => {
  for (const q of [...CARD, CARD.join(' ')]) {
    const res = await stack.as(admin, { method: 'GET', url: `/api/search?q=${encodeURIComponent(q)}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().items).toEqual([]);
  }
  const found = await stack.as(admin, { method: 'GET', url: `/api/search?q=${encodeURIComponent('card number')}` });
  expect(found.json().items.map((i: { fileId: string }) => i.fileId)).toContain(fileId);
});

/** An export's text: a Word file's document and a ZIP's entries unpacked, anything else as it is. */
function textOf(body: Buffer): string {
  if (body.subarray(0, 2).toString('latin1') !== 'PK') return body.toString('utf8');
  return Object.values(unzipSync(new Uint8Array(body)))
    .map((bytes) => {
      const inner = Buffer.from(bytes);
      return inner.subarray(0, 2).toString('latin1') === 'PK' ? textOf(inner) : strFromU8(bytes);
    })
    .join('\n');
}

test.each(EXPORT_FORMATS)(
  'the %s export, alone and in a ZIP, holds the label and no digit group of the card',
  async (format) => {
    const single = await stack.as(admin, { method: 'GET', url: `/api/transcripts/${fileId}/export?format=${format}` });
    expect(single.statusCode).toBe(200);
    const bulk = await stack.as(admin, {
      method: 'POST',
      url: '/api/transcripts/export',
      payload: { fileIds: [fileId], format },
    });
    expect(bulk.statusCode).toBe(200);
    for (const text of [textOf(single.rawPayload), textOf(bulk.rawPayload)]) {
      // A label inside Word's XML may be split across runs; its words are there.
      expect(text).toMatch(/card number/);
      expect(idsOut(text)).not.toMatch(SECRET);
    }
  },
);
