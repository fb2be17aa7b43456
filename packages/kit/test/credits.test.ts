import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { CREDIT_CODES, CREDIT_MESSAGES } from '@earshot/contracts';
import {
  ConfigError,
  CREDIT_CHECK_PATH,
  creditGateFor,
  HttpError,
  INTERNAL_TOKEN_HEADER,
  processCreditGate,
  remoteCreditGate,
  serveCreditGateInProcess,
  spenderOf,
  type SpendRequest,
} from '../src';
import { openTestDatabase } from '../src/testing';

const TOKEN = 'internal-token-internal-token-0123456789';
const COMPANY = '11111111-1111-4111-8111-111111111111';

// A stand-in for the tenant service's internal route, on a real socket: it answers by the model
// asked for, so each test picks the answer through the request it makes.
let server: FastifyInstance;
let url: string;
const received: { token: unknown; body: unknown }[] = [];

beforeAll(async () => {
  server = Fastify();
  server.post(CREDIT_CHECK_PATH, async (request, reply) => {
    const body = request.body as SpendRequest;
    received.push({ token: request.headers[INTERNAL_TOKEN_HEADER], body });
    if (request.headers[INTERNAL_TOKEN_HEADER] !== TOKEN)
      return reply.code(401).send({ message: 'no', code: 'UNAUTHENTICATED' });
    switch (body.modelId) {
      case 'exhausted':
        return reply
          .code(402)
          .send({ message: CREDIT_MESSAGES.CREDITS_EXHAUSTED, code: CREDIT_CODES.CREDITS_EXHAUSTED });
      case 'capped':
        return reply.code(402).send({ message: CREDIT_MESSAGES.USER_CAP_REACHED, code: CREDIT_CODES.USER_CAP_REACHED });
      case 'unpriced':
        return reply.code(409).send({ message: CREDIT_MESSAGES.MODEL_NOT_PRICED, code: CREDIT_CODES.MODEL_NOT_PRICED });
      case 'broken':
        return reply.code(500).send({ message: 'Internal error', code: 'INTERNAL' });
      default:
        return reply.code(204).send();
    }
  });
  await server.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}/`;
});
afterAll(async () => server.close());

const ask = (modelId: string, token = TOKEN) =>
  remoteCreditGate(url, token).assertCanSpend({ companyId: COMPANY, userId: 'u-1', feature: 'chat', modelId });

describe('remoteCreditGate', () => {
  test('204 lets the work start; the request carries the service credential and the parsed request', async () => {
    await expect(ask('priced')).resolves.toBeUndefined();
    expect(received.at(-1)).toEqual({
      token: TOKEN,
      body: { companyId: COMPANY, userId: 'u-1', feature: 'chat', modelId: 'priced' },
    });
  });

  test.each([
    ['exhausted', 402, CREDIT_CODES.CREDITS_EXHAUSTED],
    ['capped', 402, CREDIT_CODES.USER_CAP_REACHED],
    ['unpriced', 409, CREDIT_CODES.MODEL_NOT_PRICED],
  ] as const)(
    '%s: the HttpError the service answers with (%i %s), with the console message',
    async (modelId, status, code) => {
      const refusal = await ask(modelId).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(HttpError);
      expect(refusal).toMatchObject({ statusCode: status, code, message: CREDIT_MESSAGES[code] });
    },
  );

  test('any other answer is a failure of the check, never a refusal nor a go', async () => {
    for (const failure of [
      await ask('broken').catch((e: unknown) => e),
      await ask('priced', `${TOKEN}x`).catch((e: unknown) => e),
    ]) {
      expect(failure).toBeInstanceOf(Error);
      expect(failure).not.toBeInstanceOf(HttpError);
    }
  });

  test('a request that is not a SpendRequest is never sent', async () => {
    const before = received.length;
    await expect(
      remoteCreditGate(url, TOKEN).assertCanSpend({ companyId: '', userId: null, feature: 'chat' }),
    ).rejects.toThrow();
    expect(received.length).toBe(before);
  });
});

describe('the gate of a process', () => {
  test('distributed without the settings: a ConfigError naming both', async () => {
    const database = await openTestDatabase();
    try {
      const refusal = (() => {
        try {
          creditGateFor(database, {});
        } catch (error) {
          return error;
        }
      })();
      expect(refusal).toBeInstanceOf(ConfigError);
      expect((refusal as ConfigError).problems).toEqual([
        expect.stringMatching(/^BILLING_SERVICE_URL: required/),
        expect.stringMatching(/^INTERNAL_API_TOKEN: required/),
      ]);
    } finally {
      await database.close();
    }
  });

  test('processCreditGate asks the gate served in its process, even one served after it was made, before any remote one', async () => {
    const database = await openTestDatabase();
    try {
      const gate = processCreditGate(database, { BILLING_SERVICE_URL: url, INTERNAL_API_TOKEN: TOKEN });
      const before = received.length;
      await expect(
        gate.assertCanSpend({ companyId: COMPANY, userId: null, feature: 'analysis', modelId: 'exhausted' }),
      ).rejects.toMatchObject({ statusCode: 402 });
      expect(received.length).toBe(before + 1);

      const asked: SpendRequest[] = [];
      serveCreditGateInProcess(database, {
        async assertCanSpend(request) {
          asked.push(request);
        },
      });
      await expect(
        gate.assertCanSpend({ companyId: COMPANY, userId: null, feature: 'analysis', modelId: 'exhausted' }),
      ).resolves.toBeUndefined();
      expect(asked).toEqual([{ companyId: COMPANY, userId: null, feature: 'analysis', modelId: 'exhausted' }]);
      expect(received.length).toBe(before + 1);
    } finally {
      await database.close();
    }
  });

  test('a company API key spends for nobody in particular; a person for themself', () => {
    expect(spenderOf({ userId: 'key-of-acme', role: 'SERVICE' })).toBeNull();
    expect(spenderOf({ userId: 'u-1', role: 'USER' })).toBe('u-1');
  });
});
