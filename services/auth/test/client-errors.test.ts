import { Writable } from 'node:stream';
import { createLogger } from '@earshot/kit';
import type { TestStack } from '@earshot/kit/testing';
import { createTestStack } from '@earshot/kit/testing';
import { authService } from '../src/index';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createCompany } from './helpers';
import { CLIENT_ERROR_POLICY } from '../src/services/client-errors';

// A page of the console that fails to render reports itself so operators see it in the log.

const lines: Array<Record<string, unknown>> = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    callback();
  },
});

let stack: TestStack;
let acme: string;

beforeAll(async () => {
  stack = await createTestStack(
    [authService],
    { ADMIN_EMAIL, ADMIN_PASSWORD, LOG_LEVEL: 'info' },
    { logger: createLogger('info', 'test', { stream: capture }) },
  );
  acme = await createCompany(stack, { domain: 'acme-errors' });
});
afterAll(async () => stack.close());

const report = { name: 'TypeError', message: "Failed to construct 'URL': Invalid URL", path: '/companies' };

it('writes the report into the server log with ids only, and answers 204', async () => {
  const userId = crypto.randomUUID();
  const token = await stack.tokenFor('ADMIN', acme, userId);
  const res = await stack.as(token, { method: 'POST', url: '/api/users/client-errors', payload: report });
  expect(res.statusCode).toBe(204);
  const logged = lines.find((line) => line.userId === userId);
  expect(logged).toMatchObject({ clientError: report, companyId: acme, level: 40 });
  expect(JSON.stringify(logged)).not.toContain('admin@test.local');
});

it('refuses a path with a query, naming the field, and a body with unknown fields', async () => {
  const token = await stack.tokenFor('USER', acme);
  const query = await stack.as(token, {
    method: 'POST',
    url: '/api/users/client-errors',
    payload: { ...report, path: '/search?q=anna@example.com' },
  });
  expect(query.statusCode).toBe(400);
  expect(query.body).toContain('path');
  const extra = await stack.as(token, {
    method: 'POST',
    url: '/api/users/client-errors',
    payload: { ...report, email: 'anna@example.com' },
  });
  expect(extra.statusCode).toBe(400);
});

it('stops one person flooding the log and leaves another free to report', async () => {
  const flooder = await stack.tokenFor('CALLER', acme);
  const statuses: number[] = [];
  for (let i = 0; i <= CLIENT_ERROR_POLICY.limit; i++) {
    const res = await stack.as(flooder, { method: 'POST', url: '/api/users/client-errors', payload: report });
    statuses.push(res.statusCode);
  }
  expect(statuses.slice(0, CLIENT_ERROR_POLICY.limit)).toEqual(Array(CLIENT_ERROR_POLICY.limit).fill(204));
  expect(statuses.at(-1)).toBe(429);
  const other = await stack.tokenFor('CALLER', acme);
  expect((await stack.as(other, { method: 'POST', url: '/api/users/client-errors', payload: report })).statusCode).toBe(
    204,
  );
});

it('needs a session', async () => {
  expect((await stack.as(null, { method: 'POST', url: '/api/users/client-errors', payload: report })).statusCode).toBe(
    401,
  );
});
