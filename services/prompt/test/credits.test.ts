import { randomUUID } from 'node:crypto';
import { CREDIT_CODES, CREDIT_MESSAGES, type AnalysisRunDto, type Envelope } from '@earshot/contracts';
import { serveCreditGateInProcess } from '@earshot/kit';
import { createTestStack, ScriptedCreditGate, type TestStack } from '@earshot/kit/testing';
import { startFakeOpenAI, type FakeOpenAI } from '@earshot/ai/testing';
import { promptService } from '../src';
import { addChatModel, deliver, recording, runsDone, type Line } from './analysis-helpers';

/**
 * An analysis run costs credits: a run someone asks for is refused (402/409) before it exists; a
 * run a pattern makes by itself fails with the refusal as its reason. Neither reaches the
 * provider. The tenant service is not mounted here; the gate it would serve in this process is
 * served by the test, answering as the test says.
 */
let stack: TestStack;
let fake: FakeOpenAI;
let host: string;
let admin: string;
let adminId: string;
let modelId: string;
let promptId: string;
const company = randomUUID();
const credits = new ScriptedCreditGate();
const seen: Envelope[] = [];

const CALL: Line[] = [
  { speaker: 'Agent', start: 0, end: 4, text: 'Hello, you are through to support' },
  { speaker: 'Customer', start: 4.5, end: 9, text: 'My router keeps dropping the connection' },
];
const VALID = { summary: 'The router drops.' };
const completions = () => fake.requests.filter((r) => r.path === '/v1/chat/completions').length;
const runsOf = async (fileId: string) =>
  (
    await stack.as(admin, { method: 'GET', url: `/api/analysis/transcripts?fileId=${fileId}` })
  ).json() as AnalysisRunDto[];
const outcome = (runId: string) =>
  seen.find((e) => (e.type === 'analysis.completed' || e.type === 'analysis.failed') && e.data.id === runId);

beforeAll(async () => {
  fake = await startFakeOpenAI();
  fake.setReply({
    pieces: [JSON.stringify(VALID)],
    usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
  });
  stack = await createTestStack([promptService], { AI_ALLOW_PRIVATE_URLS: 'true' });
  serveCreditGateInProcess(stack.database, credits);
  await stack.bus.subscribe({
    group: 'test-observer',
    topics: ['earshot.prompt'],
    handle: async (e) => void seen.push(e),
  });
  host = await stack.tokenFor('HOST_ADMIN', null);
  adminId = randomUUID();
  admin = await stack.tokenFor('ADMIN', company, adminId);
  modelId = (await addChatModel(stack, host, fake.url))._id;
  const prompt = await stack.as(host, {
    method: 'POST',
    url: '/api/prompts',
    payload: {
      name: 'Summary',
      prompt: 'Summarise:\n{{transcript}}',
      type: 'transcriptAnalysis',
      scope: 'global',
      isGlobal: true,
      expectedFormat: [{ name: 'summary', type: 'string', description: 'One sentence' }],
    },
  });
  expect(prompt.statusCode).toBe(201);
  promptId = prompt.json()._id;
  await stack.settle();
}, 180_000);
afterAll(async () => {
  await stack.close();
  await fake.close();
});
beforeEach(() => credits.reset());

describe('a run someone asks for', () => {
  test.each([
    [CREDIT_CODES.CREDITS_EXHAUSTED, 402],
    [CREDIT_CODES.USER_CAP_REACHED, 402],
    [CREDIT_CODES.MODEL_NOT_PRICED, 409],
  ] as const)('%s: %i with the message; no run is made and the provider hears nothing', async (code, status) => {
    const file = recording(company, CALL);
    await deliver(stack, ...file.envelopes);
    credits.refusal = code;
    const calls = completions();
    const res = await stack.as(admin, {
      method: 'POST',
      url: '/api/analysis/transcripts',
      payload: { fileId: file.fileId, promptId },
    });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ message: CREDIT_MESSAGES[code], code });
    expect(credits.asked).toEqual([{ companyId: company, userId: adminId, feature: 'analysis', modelId }]);
    await runsDone(stack);
    expect(await runsOf(file.fileId)).toEqual([]);
    expect(completions()).toBe(calls);
  });

  test('with credits it runs, and its event names the model it is priced by', async () => {
    const file = recording(company, CALL);
    await deliver(stack, ...file.envelopes);
    const res = await stack.as(admin, {
      method: 'POST',
      url: '/api/analysis/transcripts',
      payload: { fileId: file.fileId, promptId },
    });
    expect(res.statusCode).toBe(202);
    // Credits running out while it waits or works do not stop it: it was accepted.
    credits.refusal = CREDIT_CODES.CREDITS_EXHAUSTED;
    await runsDone(stack);
    const [done] = await runsOf(file.fileId);
    expect(done).toMatchObject({ status: 'completed', result: VALID });
    expect(credits.asked).toHaveLength(1);
    expect(outcome(done!._id)).toMatchObject({
      type: 'analysis.completed',
      data: { modelId, userId: adminId, usage: { inputTokens: 100, outputTokens: 20 } },
    });
  });
});

describe('a run a pattern makes by itself', () => {
  beforeAll(async () => {
    const pattern = await stack.as(admin, {
      method: 'POST',
      url: '/api/analysis/patterns',
      payload: { name: 'Every call', promptIds: [promptId], autoRun: 'company_transcripts' },
    });
    expect(pattern.statusCode).toBe(201);
  });

  test('without credits it fails with the refusal as its reason, before any provider call', async () => {
    credits.refusal = CREDIT_CODES.CREDITS_EXHAUSTED;
    const calls = completions();
    const file = recording(company, CALL);
    await deliver(stack, ...file.envelopes);
    await runsDone(stack);
    const [failed] = await runsOf(file.fileId);
    expect(failed).toMatchObject({
      status: 'failed',
      error: CREDIT_MESSAGES.CREDITS_EXHAUSTED,
      errorCode: 'CREDITS_EXHAUSTED',
      result: null,
    });
    expect(completions()).toBe(calls);
    expect(credits.asked).toEqual([{ companyId: company, userId: null, feature: 'analysis', modelId }]);
    expect(outcome(failed!._id)).toMatchObject({
      type: 'analysis.failed',
      data: {
        modelId,
        userId: null,
        reason: CREDIT_MESSAGES.CREDITS_EXHAUSTED,
        usage: { inputTokens: 0, outputTokens: 0 },
      },
    });
  });

  test('with credits it runs and is charged by its event', async () => {
    const file = recording(company, CALL);
    await deliver(stack, ...file.envelopes);
    await runsDone(stack);
    const [done] = await runsOf(file.fileId);
    expect(done).toMatchObject({ status: 'completed', result: VALID });
    expect(credits.asked).toEqual([{ companyId: company, userId: null, feature: 'analysis', modelId }]);
    expect(outcome(done!._id)).toMatchObject({
      type: 'analysis.completed',
      data: { modelId, usage: { inputTokens: 100, outputTokens: 20 } },
    });
  });
});
