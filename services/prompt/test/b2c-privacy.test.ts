import { randomUUID } from 'node:crypto';
import { createTestStack, serveUnmeteredCredits, type TestStack } from '@earshot/kit/testing';
import { startFakeOpenAI, type FakeOpenAI } from '@earshot/ai/testing';
import { promptService } from '../src';
import { addChatModel, companyCreated, deliver, recording, runsDone, type Line } from './analysis-helpers';

// In a b2c company each member's files are private, in analysis too: another member
// (the company's administrator included) gets 404 for its runs and metrics and cannot run one.
// Members of other company types share their company's files.
const SHOP = randomUUID();
const ACME = randomUUID();
const alice = randomUUID();
const bob = randomUUID();
const CALL: Line[] = [
  { speaker: 'Agent', start: 0, end: 4, text: 'Hello, how can I help' },
  { speaker: 'Customer', start: 4.5, end: 9, text: 'My parcel to Riga never arrived' },
];

let stack: TestStack;
let fake: FakeOpenAI;
let promptId: string;
let aliceFile: string;
let acmeFile: string;

type Method = 'GET' | 'POST' | 'DELETE';
const call = (token: string, method: Method, url: string, payload?: Record<string, unknown>) =>
  stack.as(token, { method, url: `/api${url}`, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  fake = await startFakeOpenAI();
  stack = await createTestStack([promptService], { AI_ALLOW_PRIVATE_URLS: 'true' });
  // No tenant service in this stack: nothing here is metered.
  serveUnmeteredCredits(stack.database);
  const host = await stack.tokenFor('HOST_ADMIN', null);
  await addChatModel(stack, host, fake.url);
  const prompt = await call(host, 'POST', '/prompts', {
    name: 'Summary',
    prompt: 'Summarise:\n{{transcript}}',
    type: 'transcriptAnalysis',
    scope: 'global',
    isGlobal: true,
    expectedFormat: [{ name: 'summary', type: 'string', description: 'One sentence' }],
  });
  expect(prompt.statusCode).toBe(201);
  promptId = prompt.json()._id;
  const shop = recording(SHOP, CALL, { uploadedBy: alice });
  const acme = recording(ACME, CALL, { uploadedBy: randomUUID() });
  aliceFile = shop.fileId;
  acmeFile = acme.fileId;
  await deliver(
    stack,
    companyCreated(SHOP, 'b2c'),
    companyCreated(ACME, 'enterprise'),
    ...shop.envelopes,
    ...acme.envelopes,
  );
}, 60_000);
afterAll(async () => {
  await stack.close();
  await fake.close();
});

test("another b2c member's file is not found: no run, no list, no metrics, no deleting its runs", async () => {
  const aliceToken = await stack.tokenFor('USER', SHOP, alice);
  fake.queueReply({ pieces: [JSON.stringify({ summary: 'A parcel went missing.' })] });
  const started = await call(aliceToken, 'POST', '/analysis/transcripts', { fileId: aliceFile, promptId });
  expect(started.statusCode).toBe(202);
  await runsDone(stack);
  expect((await call(aliceToken, 'GET', `/analysis/transcripts?fileId=${aliceFile}`)).json()).toHaveLength(1);
  expect((await call(aliceToken, 'GET', `/analysis/transcripts/${aliceFile}/metrics`)).statusCode).toBe(200);

  for (const token of [await stack.tokenFor('USER', SHOP, bob), await stack.tokenFor('ADMIN', SHOP)]) {
    expect((await call(token, 'POST', '/analysis/transcripts', { fileId: aliceFile, promptId })).statusCode).toBe(404);
    expect((await call(token, 'GET', `/analysis/transcripts?fileId=${aliceFile}`)).statusCode).toBe(404);
    expect((await call(token, 'GET', `/analysis/transcripts/${aliceFile}/metrics`)).statusCode).toBe(404);
    expect((await call(token, 'DELETE', `/analysis/transcripts/${started.json()._id}`)).statusCode).toBe(404);
  }
  // The platform administrator sees every file.
  expect(
    (await call(await stack.tokenFor('HOST_ADMIN', null), 'GET', `/analysis/transcripts?fileId=${aliceFile}`)).json(),
  ).toHaveLength(1);
});

test('in an enterprise company members still share their files in analysis', async () => {
  const colleague = await stack.tokenFor('USER', ACME);
  expect((await call(colleague, 'GET', `/analysis/transcripts/${acmeFile}/metrics`)).statusCode).toBe(200);
  expect((await call(colleague, 'GET', `/analysis/transcripts?fileId=${acmeFile}`)).statusCode).toBe(200);
});
