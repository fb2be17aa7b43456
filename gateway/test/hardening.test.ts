import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { InjectOptions } from 'fastify';
import { CSRF_HEADER, createLogger, type Database } from '@earshot/kit';
import { openTestDatabase } from '@earshot/kit/testing';
import { createAllInOne, type AllInOne } from '../src';

// Bad input and secrets in logs, on the real all-in-one server: every service's routes behind the
// gateway, a real database, and every log line (trace included) captured.

const ADMIN_PASSWORD = 'host-admin-password-1';
const lines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    callback();
  },
});

let earshot: AllInOne;
let database: Database;
let dataDir: string;
let cookie: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'earshot-hardening-'));
  database = await openTestDatabase();
  earshot = await createAllInOne({
    database,
    logger: createLogger('trace', 'earshot', { stream: capture }),
    env: {
      LOG_LEVEL: 'trace',
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      ADMIN_EMAIL: 'root@earshot.test',
      ADMIN_PASSWORD,
      AI_ALLOW_PRIVATE_URLS: 'true',
    },
  });
  const login = await earshot.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'root@earshot.test', password: ADMIN_PASSWORD },
  });
  expect(login.statusCode).toBe(200);
  cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}, 120_000);

afterAll(async () => {
  await earshot?.close();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const asHost = (options: InjectOptions) =>
  earshot.app.inject({ ...options, headers: { cookie, [CSRF_HEADER]: 'XMLHttpRequest', ...(options.headers ?? {}) } });

describe('a NUL byte anywhere in the input is a 400 naming the field', () => {
  const cases: { name: string; request: InjectOptions; field: string; signedIn?: boolean }[] = [
    {
      name: 'path parameter, unauthenticated',
      request: { method: 'GET', url: '/api/config/company/%00' },
      field: 'params.subdomain',
    },
    {
      name: 'path parameter in the middle',
      request: { method: 'GET', url: '/api/config/company/ac%00me' },
      field: 'params.subdomain',
    },
    {
      name: 'query value',
      request: { method: 'GET', url: '/api/companies?q=a%00b' },
      field: 'query.q',
      signedIn: true,
    },
    {
      name: 'JSON string',
      request: { method: 'POST', url: '/api/auth/login', payload: { email: 'a@b.test', password: 'pass\u0000word' } },
      field: 'body.password',
    },
    {
      name: 'JSON string nested in objects and arrays',
      request: {
        method: 'POST',
        url: '/api/ai/config/provider',
        payload: { name: 'x', baseUrl: 'http://127.0.0.1:9/v1', user: { tags: ['ok', 'n\u0000'] } },
      },
      field: 'body.user.tags.1',
      signedIn: true,
    },
    {
      name: 'UUID path parameter',
      request: { method: 'GET', url: '/api/users/%00' },
      field: 'params.id',
      signedIn: true,
    },
  ];
  test.each(cases)('$name', async ({ request, field, signedIn }) => {
    const res = signedIn ? await asHost(request) : await earshot.app.inject(request);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field }] });
    expect(res.json().message).toContain(field);
  });
});

describe('database errors reach the log without the values of the failed statement', () => {
  const PASSWORD = 'a-user-password-that-must-not-leak';
  const API_KEY = 'sk-live-key-that-must-never-be-logged';

  beforeAll(async () => {
    // Every new row is refused, so the inserts below fail inside the database itself.
    await database.query('alter table auth.users add constraint hardening_refuse check (false) not valid');
    await database.query('alter table prompt.ai_providers add constraint hardening_refuse check (false) not valid');
  });

  test('a failed user insert (argon2 hash) and a failed provider insert (sealed key) log neither', async () => {
    lines.length = 0;
    const user = await asHost({
      method: 'POST',
      url: '/api/users/register',
      payload: {
        firstName: 'Leak',
        lastName: 'Check',
        email: 'leak@earshot.test',
        password: PASSWORD,
        role: 'HOST_ADMIN',
      },
    });
    expect(user.statusCode).toBe(500);
    const provider = await asHost({
      method: 'POST',
      url: '/api/ai/config/provider',
      payload: { name: 'Leaky', baseUrl: 'http://127.0.0.1:9/v1', apiKey: API_KEY },
    });
    expect(provider.statusCode).toBe(500);

    // The failures are logged, usefully: the constraint is named.
    const errors = lines.filter((line) => line.includes('hardening_refuse'));
    expect(errors.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) {
      expect(line).not.toContain(PASSWORD);
      expect(line).not.toContain('$argon2');
      expect(line).not.toContain(API_KEY);
      // SecretBox's sealed form.
      expect(line).not.toMatch(/v1:[A-Za-z0-9+/]{16,}/);
      expect(line).not.toContain('Failing row contains');
    }
  });
});

test('the sign-in limit counts the matched route: a query string or a trailing slash is the same route', async () => {
  // SIGN_IN_RATE_LIMIT_MAX is 30 by default; every attempt below is a different account, so the
  // auth service's own per-account throttling stays out of the picture.
  const urls = ['/api/auth/login', '/api/auth/login?n=1', '/api/auth/login/', '/api/auth/login/?n=2'];
  const statuses: number[] = [];
  for (let i = 0; i < 35; i++) {
    const res = await earshot.app.inject({
      method: 'POST',
      url: urls[i % urls.length]!,
      remoteAddress: '192.0.2.77',
      payload: { email: `nobody-${i}@earshot.test`, password: 'wrong-password' },
    });
    statuses.push(res.statusCode);
  }
  expect(statuses.filter((s) => s === 429).length).toBe(5);
  expect(statuses.slice(30)).toEqual([429, 429, 429, 429, 429]);
});
