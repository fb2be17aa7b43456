import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { API_KEY_HEADER_NAME, CREDIT_CODES, CREDIT_MESSAGES, type Envelope } from '@earshot/contracts';
import { serveCreditGateInProcess } from '@earshot/kit';
import { createTestStack, ScriptedCreditGate, type TestStack } from '@earshot/kit/testing';
import { fileService } from '../src';
import { announceCompany, filesUnder, streamingUpload, uploadRequest, wavHeader } from './helpers';

// Starting PGlite takes a while on a busy machine.
jest.setTimeout(180_000);

/**
 * Every upload is transcribed, which costs credits: the file service asks the credit gate before
 * it reads the body. The tenant service is not mounted here; the gate it would serve in this
 * process is served by the test, answering as the test says.
 */
const COMPANY = randomUUID();
const API_KEY = `esk_${'k'.repeat(32)}`;
let stack: TestStack;
let token: string;
let userId: string;
const credits = new ScriptedCreditGate();
const published: Envelope[] = [];

const rows = async () => (await stack.database.query<{ id: string }>('select id from file.files')).length;
const objects = () => filesUnder(`${stack.dataDir}/objects`);

beforeAll(async () => {
  stack = await createTestStack([fileService]);
  serveCreditGateInProcess(stack.database, credits);
  // The company's key, as the tenant service of this process would answer for it.
  stack.tokens.apiKeys.serveLocally({ owner: async () => ({ companyId: COMPANY }) });
  await stack.bus.subscribe({ group: 'spy', topics: ['earshot.file'], handle: async (e) => void published.push(e) });
  await announceCompany(stack, COMPANY, null);
  userId = randomUUID();
  token = await stack.tokenFor('USER', COMPANY, userId);
});
afterAll(async () => stack?.close());
beforeEach(() => credits.reset());

// Two seconds of 16 kHz 16-bit mono silence.
const twoSeconds = () => Buffer.concat([wavHeader(64_000), Buffer.alloc(64_000)]);

test.each([CREDIT_CODES.CREDITS_EXHAUSTED, CREDIT_CODES.USER_CAP_REACHED] as const)(
  '%s: 402 with the message, and nothing is stored or announced',
  async (code) => {
    credits.refusal = code;
    const before = published.length;
    const res = await stack.as(token, uploadRequest(twoSeconds(), 'call.wav'));
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ message: CREDIT_MESSAGES[code], code });
    expect(credits.asked).toEqual([{ companyId: COMPANY, userId, feature: 'transcription' }]);
    await stack.settle();
    expect(await rows()).toBe(0);
    expect(objects()).toEqual([]);
    expect(published.slice(before)).toEqual([]);
  },
);

test('refused before the body is read: the answer comes while most of a large upload is still unsent', async () => {
  credits.refusal = CREDIT_CODES.CREDITS_EXHAUSTED;
  const total = 64 * 1024 * 1024;
  const address = await stack.app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const { status, body, sentWhenAnswered } = await streamingUpload(`${address}/api/files/upload`, token, total);
    expect(status).toBe(402);
    expect(JSON.parse(body)).toEqual({ message: CREDIT_MESSAGES.CREDITS_EXHAUSTED, code: 'CREDITS_EXHAUSTED' });
    expect(sentWhenAnswered).toBeLessThan(total / 2);
  } finally {
    await stack.app.server.close();
  }
  expect(await rows()).toBe(0);
  expect(objects()).toEqual([]);
});

test("a company API key's upload is refused the same way, spent for no person", async () => {
  credits.refusal = CREDIT_CODES.CREDITS_EXHAUSTED;
  const upload = uploadRequest(twoSeconds(), 'dialer.wav');
  const res = await stack.app.inject({ ...upload, headers: { ...upload.headers, [API_KEY_HEADER_NAME]: API_KEY } });
  expect(res.statusCode).toBe(402);
  expect(res.json().code).toBe('CREDITS_EXHAUSTED');
  expect(credits.asked).toEqual([{ companyId: COMPANY, userId: null, feature: 'transcription' }]);
  expect(await rows()).toBe(0);
});

test('with credits the upload is stored, and file.uploaded says how long it plays', async () => {
  const before = published.length;
  const res = await stack.as(token, uploadRequest(twoSeconds(), 'call.wav'));
  expect(res.statusCode).toBe(201);
  expect(credits.asked).toEqual([{ companyId: COMPANY, userId, feature: 'transcription' }]);
  await stack.settle();
  const event = published.slice(before).find((e) => e.type === 'file.uploaded');
  expect(event?.data).toMatchObject({ id: res.json()._id, estimatedSeconds: 2 });
});
