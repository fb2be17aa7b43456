import { randomUUID } from 'node:crypto';
import { ANALYSIS_MESSAGES, type AnalysisRunDto, type Envelope } from '@earshot/contracts';
import { buildEnvelope } from '@earshot/kit';
import { createTestStack, serveUnmeteredCredits, type TestStack } from '@earshot/kit/testing';
import { startFakeOpenAI, type FakeOpenAI } from '@earshot/ai/testing';
import { analysisQueue, promptService } from '../src';
import { addChatModel, deliver, recording, runsDone, type Line } from './analysis-helpers';

let stack: TestStack;
let fake: FakeOpenAI;
let host: string;
let adminA: string;
let userA: string;
let adminB: string;
const companyA = randomUUID();
const companyB = randomUUID();
const userAId = randomUUID();
const seen: Envelope[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAI();
  stack = await createTestStack([promptService], { AI_ALLOW_PRIVATE_URLS: 'true' });
  // No tenant service in this stack: nothing here is metered.
  serveUnmeteredCredits(stack.database);
  await stack.bus.subscribe({
    group: 'test-observer',
    topics: ['earshot.prompt'],
    handle: async (e) => void seen.push(e),
  });
  host = await stack.tokenFor('HOST_ADMIN', null);
  adminA = await stack.tokenFor('ADMIN', companyA);
  userA = await stack.tokenFor('USER', companyA, userAId);
  adminB = await stack.tokenFor('ADMIN', companyB);
}, 60_000);
afterAll(async () => {
  await stack.close();
  await fake.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (token: string, method: Method, url: string, payload?: unknown) =>
  stack.as(token, {
    method,
    url: `/api${url}`,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

const FORMAT = [
  { name: 'score', type: 'integer', range: '1-10', description: 'How well the agent did' },
  { name: 'tone', type: 'custom', options: ['positive', 'neutral', 'negative'], description: 'The tone' },
  { name: 'resolved', type: 'boolean', description: 'Was the problem solved' },
  { name: 'summary', type: 'string', description: 'One sentence' },
];
const VALID = { score: 8, tone: 'positive', resolved: true, summary: 'The agent fixed the router.' };
const answer = (value: unknown) => ({
  pieces: [JSON.stringify(value)],
  usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
});

const CALL: Line[] = [
  { speaker: 'Agent', start: 0, end: 4, text: 'Hello, you are through to support, how can I help' },
  { speaker: 'Customer', start: 4.5, end: 9, text: 'My router keeps dropping the connection every evening' },
  { speaker: 'Agent', start: 9.5, end: 14, text: 'I have pushed a firmware update, please restart it now' },
  { speaker: 'Customer', start: 14.2, end: 16, text: 'It works, thank you' },
];

async function createPrompt(overrides: Record<string, unknown> = {}): Promise<{ _id: string; version: number }> {
  const res = await call(host, 'POST', '/prompts', {
    name: 'Call review',
    prompt: 'Review this call with {{speakers}} ({{recording.duration}}):\n{{transcript}}',
    type: 'transcriptAnalysis',
    expectedFormat: FORMAT,
    scope: 'global',
    isGlobal: true,
    ...overrides,
  });
  expect(res.statusCode).toBe(201);
  return res.json();
}

async function run(token: string, body: Record<string, unknown>): Promise<AnalysisRunDto[]> {
  const started = await call(token, 'POST', '/analysis/transcripts', body);
  expect(started.statusCode).toBe(202);
  expect(started.json()).toMatchObject({ _id: expect.any(String), status: 'pending' });
  await runsDone(stack);
  return (await call(token, 'GET', `/analysis/transcripts?fileId=${body.fileId as string}`)).json();
}

const lastRequest = () => fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!;

let promptId: string;
let fileA: string;

describe('without a chat model', () => {
  test('running a prompt says so plainly, with a code for the console, and makes nothing up', async () => {
    promptId = (await createPrompt())._id;
    const a = recording(companyA, CALL);
    await deliver(stack, ...a.envelopes);
    fileA = a.fileId;
    const res = await call(adminA, 'POST', '/analysis/transcripts', { fileId: fileA, promptId });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'NO_CHAT_MODEL', message: ANALYSIS_MESSAGES.noChatModel });
    expect((await call(adminA, 'GET', `/analysis/transcripts?fileId=${fileA}`)).json()).toEqual([]);
  });

  test('call analytics need no model', async () => {
    const res = await call(userA, 'GET', `/analysis/transcripts/${fileA}/metrics`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      duration: 16,
      speakers: [
        { speakerId: 'Agent', talkTime: 8.5, turns: 2 },
        { speakerId: 'Customer', talkTime: 6.3, turns: 2 },
      ],
    });
  });
});

describe('with a chat model', () => {
  beforeAll(async () => {
    await addChatModel(stack, host, fake.url);
  });

  test('a schema-valid answer is stored typed, with version, model, tokens and duration, and announced', async () => {
    fake.queueReply(answer(VALID));
    const [latest] = await run(userA, { fileId: fileA, promptId });
    expect(latest).toMatchObject({
      promptId,
      promptVersion: 1,
      promptName: 'Call review',
      status: 'completed',
      result: VALID,
      error: null,
      model: 'Fake chat',
      usage: { inputTokens: 100, outputTokens: 20 },
      progress: { done: 1, total: 1 },
      patternId: null,
    });
    expect(latest!.durationMs).toEqual(expect.any(Number));
    expect(latest!.expectedFormat.map((f) => f.name)).toEqual(['score', 'tone', 'resolved', 'summary']);

    const sent = lastRequest().body!;
    expect(sent.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'analysis_result',
        strict: true,
        schema: {
          type: 'object',
          additionalProperties: false,
          required: ['score', 'tone', 'resolved', 'summary'],
          properties: {
            score: { type: 'integer', minimum: 1, maximum: 10, description: FORMAT[0]!.description },
            tone: { type: 'string', enum: ['positive', 'neutral', 'negative'], description: FORMAT[1]!.description },
            resolved: { type: 'boolean', description: FORMAT[2]!.description },
            summary: { type: 'string', description: FORMAT[3]!.description },
          },
        },
      },
    });
    const user = sent.messages!.find((m) => m.role === 'user')!.content;
    expect(user).toContain('Review this call with Agent, Customer (0:16):');
    expect(user).toContain('[0:04] Customer: My router keeps dropping the connection every evening');

    const event = seen.find((e) => e.type === 'analysis.completed' && e.data.id === latest!._id);
    expect(event).toMatchObject({
      companyId: companyA,
      data: {
        fileId: fileA,
        promptId,
        promptVersion: 1,
        model: 'Fake chat',
        usage: { inputTokens: 100, outputTokens: 20 },
        userId: userAId,
      },
    });
    expect(JSON.stringify(event)).not.toContain('router');
  });

  test('an invalid answer is asked again once with its problems, and the repaired answer is kept', async () => {
    fake.queueReply(answer({ ...VALID, score: 11 }));
    fake.queueReply(answer(VALID));
    const [latest] = await run(adminA, { fileId: fileA, promptId });
    expect(latest).toMatchObject({ status: 'completed', result: VALID, usage: { inputTokens: 200, outputTokens: 40 } });
    const retry = lastRequest().body!.messages!;
    expect(retry.at(-2)).toMatchObject({ role: 'assistant', content: JSON.stringify({ ...VALID, score: 11 }) });
    expect(retry.at(-1)!.content).toContain('score: Too big');
  });

  test('an answer that stays invalid fails with the reason and stores no result', async () => {
    fake.queueReply(answer({ ...VALID, tone: 'angry' }));
    fake.queueReply({ ...answer(null), pieces: ['Sorry, I cannot do JSON.'] });
    const [latest] = await run(adminA, { fileId: fileA, promptId });
    expect(latest).toMatchObject({
      status: 'failed',
      result: null,
      error: `${ANALYSIS_MESSAGES.invalidAnswer}: the answer is not a JSON object`,
    });
    expect(seen.find((e) => e.type === 'analysis.failed' && e.data.id === latest!._id)).toMatchObject({
      data: { reason: latest!.error, usage: { inputTokens: 200 } },
    });
  });

  test('versions are kept: runs name the version they were made with, and its format', async () => {
    const edited = await call(host, 'PUT', `/prompts/${promptId}`, {
      name: 'Call review',
      prompt: 'Score this call:\n{{transcript}}',
      type: 'transcriptAnalysis',
      expectedFormat: [FORMAT[0]],
      scope: 'global',
      isGlobal: true,
    });
    expect(edited.json()).toMatchObject({ version: 2 });
    fake.queueReply(answer({ score: 3 }));
    const runs = await run(adminA, { fileId: fileA, promptId });
    expect(runs[0]).toMatchObject({ promptVersion: 2, result: { score: 3 }, expectedFormat: [{ name: 'score' }] });
    expect(runs.slice(1).every((r) => r.promptVersion === 1 && r.expectedFormat.length === 4)).toBe(true);
    expect(runs).toHaveLength(4);
  });

  test('a pattern makes one run per prompt, in its order', async () => {
    const second = await createPrompt({ name: 'Free summary', expectedFormat: [], type: 'summary' });
    const pattern = await call(adminA, 'POST', '/analysis/patterns', {
      name: 'Review',
      promptIds: [second._id, promptId],
    });
    fake.setReply(answer({ answer: 'A short call.' }));
    const started = await call(userA, 'POST', '/analysis/transcripts', {
      fileId: fileA,
      patternId: pattern.json()._id,
    });
    expect(started.statusCode).toBe(202);
    const body = started.json() as { _id: string; runs: { _id: string; promptId: string }[] };
    expect(body.runs.map((r) => r.promptId)).toEqual([second._id, promptId]);
    expect(body._id).toBe(body.runs[0]!._id);
    await runsDone(stack);
    const runs = (await call(userA, 'GET', `/analysis/transcripts?fileId=${fileA}`)).json() as AnalysisRunDto[];
    // A prompt without an expected format answers in one string field.
    expect(runs.find((r) => r._id === body.runs[0]!._id)).toMatchObject({
      status: 'completed',
      result: { answer: 'A short call.' },
      patternId: pattern.json()._id,
    });
  });

  test('a provider without json_schema support gets json_object, then instructions only', async () => {
    const other = await startFakeOpenAI();
    try {
      other.refuseResponseFormats = ['json_schema', 'json_object'];
      await addChatModel(stack, host, other.url, { name: 'plain-model' });
      other.setReply({ pieces: ['```json\n' + JSON.stringify(VALID) + '\n```'] });
      const solo = await createPrompt({ name: 'Solo' });
      const [latest] = await run(adminA, { fileId: fileA, promptId: solo._id });
      expect(latest).toMatchObject({ status: 'completed', result: VALID });
      const formats = other.requests
        .filter((r) => r.path === '/v1/chat/completions')
        .map((r) => (r.body?.response_format as { type?: string } | undefined)?.type ?? 'none');
      expect(formats).toEqual(['json_schema', 'json_object', 'none']);
      // The model's mode is remembered: the next run asks without a response_format at once.
      await run(adminA, { fileId: fileA, promptId: solo._id });
      expect(other.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(4);
    } finally {
      await addChatModel(stack, host, fake.url);
      await other.close();
    }
  });

  test('a long transcript is analysed in parts, with progress, then combined', async () => {
    await addChatModel(stack, host, fake.url, { contextSize: 1_000, name: 'small-context' });
    const lines: Line[] = Array.from({ length: 120 }, (_, i) => ({
      speaker: i % 2 ? 'Customer' : 'Agent',
      start: i * 5,
      end: i * 5 + 4,
      text: `Sentence number ${i} about the router and the evening connection drops.`,
    }));
    const long = recording(companyA, lines);
    await deliver(stack, ...long.envelopes);
    fake.setReply(answer(VALID));
    const before = fake.requests.length;
    const [latest] = await run(adminA, { fileId: long.fileId, promptId: (await createPrompt({ name: 'Long' }))._id });
    const parts = latest!.progress!.total;
    expect(parts).toBeGreaterThan(1);
    expect(latest).toMatchObject({ status: 'completed', result: VALID, progress: { done: parts, total: parts } });
    const sent = fake.requests.slice(before).filter((r) => r.path === '/v1/chat/completions');
    expect(sent).toHaveLength(parts + 1);
    expect(sent[0]!.body!.messages!.at(-1)!.content).toContain(`(Part 1 of ${parts} of the transcript`);
    expect(sent.at(-1)!.body!.messages!.at(-1)!.content).toContain(`it was analysed in ${parts} parts`);
    // Every part stays within the small model's context (about 4 characters a token).
    for (const request of sent) expect(JSON.stringify(request.body!.messages).length).toBeLessThan(1_000 * 4);
  });

  test('a run can be deleted; one left running by a stopped process fails with the reason at start', async () => {
    fake.setReply(answer(VALID));
    const runs = await run(adminA, { fileId: fileA, promptId });
    expect((await call(adminA, 'DELETE', `/analysis/transcripts/${runs[0]!._id}`)).statusCode).toBe(200);
    const left = (await call(adminA, 'GET', `/analysis/transcripts?fileId=${fileA}`)).json() as AnalysisRunDto[];
    expect(left.map((r) => r._id)).not.toContain(runs[0]!._id);

    const queue = analysisQueue(stack.database)!;
    await queue.stop();
    await stack.database.query(`update prompt.analysis_runs set status = 'running', finished_at = null where id = $1`, [
      left[0]!._id,
    ]);
    await queue.start();
    await runsDone(stack);
    const after = (await call(adminA, 'GET', `/analysis/transcripts?fileId=${fileA}`)).json() as AnalysisRunDto[];
    expect(after.find((r) => r._id === left[0]!._id)).toMatchObject({
      status: 'failed',
      error: ANALYSIS_MESSAGES.interrupted,
      result: null,
    });
  });
});

describe('automatic patterns', () => {
  test('a company pattern runs on every completed transcript once, and a client pattern on recordings linked to a client', async () => {
    fake.setReply(answer(VALID));
    const auto = await createPrompt({ name: 'Auto' });
    await call(adminA, 'POST', '/analysis/patterns', {
      name: 'Every call',
      promptIds: [auto._id],
      autoRun: 'company_transcripts',
    });
    await call(adminA, 'POST', '/analysis/patterns', {
      name: 'Client calls',
      promptIds: [auto._id],
      autoRun: 'client_recordings',
    });
    const fresh = recording(companyA, CALL);
    await deliver(stack, ...fresh.envelopes);
    // The same event again (a redelivery) makes no second run.
    await deliver(stack, fresh.completed);
    await runsDone(stack);
    let runs = (await call(adminA, 'GET', `/analysis/transcripts?fileId=${fresh.fileId}`)).json() as AnalysisRunDto[];
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'completed', promptId: auto._id, result: VALID });
    expect(seen.find((e) => e.type === 'analysis.completed' && e.data.id === runs[0]!._id)).toMatchObject({
      data: { userId: null },
    });

    const link = buildEnvelope({
      type: 'transcript.client_linked',
      companyId: companyA,
      actor: { type: 'system', id: null },
      data: {
        id: fresh.transcriptId,
        fileId: fresh.fileId,
        before: { clientId: null },
        after: { clientId: randomUUID() },
      },
    });
    await deliver(stack, link);
    await deliver(stack, link);
    await runsDone(stack);
    runs = (await call(adminA, 'GET', `/analysis/transcripts?fileId=${fresh.fileId}`)).json() as AnalysisRunDto[];
    expect(runs).toHaveLength(2);
  });
});

describe('another company', () => {
  test('its files, runs and metrics are not found, nor are its prompts on our files', async () => {
    const theirs = recording(companyB, CALL);
    await deliver(stack, ...theirs.envelopes);
    const theirPrompt = await createPrompt({
      name: 'B only',
      isGlobal: false,
      scope: 'company',
      companies: [companyB],
    });
    fake.setReply(answer(VALID));
    const [theirRun] = await run(adminB, { fileId: theirs.fileId, promptId: theirPrompt._id });
    expect(theirRun!.status).toBe('completed');

    for (const [method, url, payload] of [
      ['POST', '/analysis/transcripts', { fileId: theirs.fileId, promptId }],
      ['GET', `/analysis/transcripts?fileId=${theirs.fileId}`, undefined],
      ['GET', `/analysis/transcripts/${theirs.fileId}/metrics`, undefined],
      ['DELETE', `/analysis/transcripts/${theirRun!._id}`, undefined],
      ['POST', '/analysis/transcripts', { fileId: fileA, promptId: theirPrompt._id }],
    ] as const) {
      const res = await call(adminA, method, url, payload);
      expect([method, url, res.statusCode]).toEqual([method, url, 404]);
    }
    // The platform administrator sees every company's.
    expect((await call(host, 'GET', `/analysis/transcripts?fileId=${theirs.fileId}`)).json()).toHaveLength(1);
  });

  test('bad input names the field', async () => {
    const both = await call(adminA, 'POST', '/analysis/transcripts', { fileId: fileA, promptId, patternId: promptId });
    expect(both.statusCode).toBe(400);
    expect(JSON.stringify(both.json())).toContain(ANALYSIS_MESSAGES.promptOrPattern);
    expect((await call(adminA, 'GET', '/analysis/transcripts?fileId=nope')).statusCode).toBe(400);
  });
});

describe('call analytics follow the text', () => {
  test('a word edit changes the word counts at once', async () => {
    const before = (await call(adminA, 'GET', `/analysis/transcripts/${fileA}/metrics`)).json();
    const edit = buildEnvelope({
      type: 'transcript.word_edited',
      companyId: companyA,
      actor: { type: 'system', id: null },
      data: {
        id: randomUUID(),
        fileId: fileA,
        wordId: 'w',
        segmentId: 's-3',
        segmentText: 'It works now, thank you so much',
        before: { text: 'x' },
        after: { text: 'y' },
      },
    });
    await deliver(stack, edit);
    const after = (await call(adminA, 'GET', `/analysis/transcripts/${fileA}/metrics`)).json();
    expect(before.speakers[1].words).toBe(12);
    expect(after.speakers[1].words).toBe(15);
  });

  test('a deleted transcript takes its runs and metrics along', async () => {
    await deliver(
      stack,
      buildEnvelope({
        type: 'transcript.deleted',
        companyId: companyA,
        actor: { type: 'system', id: null },
        data: { id: null, fileId: fileA },
      }),
    );
    expect((await call(adminA, 'GET', `/analysis/transcripts/${fileA}/metrics`)).statusCode).toBe(404);
    expect((await call(adminA, 'GET', `/analysis/transcripts?fileId=${fileA}`)).statusCode).toBe(404);
  });
});
