import type { TestStack } from '@earshot/kit/testing';
import { MAX_LIVE_RESETS } from '../src/services/credentials';
import { KNOWN_DEVICE_COOKIE } from '../src/services/throttle';
import { Browser, PASSWORD, authStack, createCompany, createUser, login, resetLinks } from './helpers';

let stack: TestStack;
let acme: string;

beforeAll(async () => {
  // No PUBLIC_URL: reset links must still not come from the Host header.
  stack = await authStack({ PORT: '4321' });
  acme = await createCompany(stack, { domain: 'acme' });
});
afterAll(async () => stack.close());

describe('sign-in throttling cannot lock a person out of a device they have used', () => {
  test('a stranger behind the same address and on many others locks out new devices, not the known one', async () => {
    await createUser(stack, { email: 'victim@acme.test', role: 'USER', companyId: acme });
    const office = '100.64.0.1';
    const device = new Browser(stack, office);
    expect(
      (await device.request('POST', '/api/auth/login', { email: 'victim@acme.test', password: PASSWORD })).statusCode,
    ).toBe(200);
    expect(device.cookie(KNOWN_DEVICE_COOKIE)).toBeDefined();
    await device.request('POST', '/api/auth/logout');

    // The stranger guesses from the shared office address and from ten others: every wider lock trips.
    for (let i = 0; i < 5; i++)
      expect((await login(stack, { email: 'victim@acme.test', password: `guess ${i}` }, office)).statusCode).toBe(401);
    for (let i = 0; i < 10; i++)
      await login(stack, { email: 'victim@acme.test', password: `spray ${i}` }, `203.0.113.${i + 1}`);
    // And the shared address as a whole is locked (as 50 failures over many accounts would do).
    await stack.database.query(
      `insert into auth.sign_in_throttle (key, failures, window_started_at, locked_until) values ($1, 0, now(), now() + interval '5 minutes') on conflict (key) do update set locked_until = excluded.locked_until`,
      [`ip:${office}`],
    );
    expect((await login(stack, { email: 'victim@acme.test', password: PASSWORD }, office)).statusCode).toBe(429);
    expect((await login(stack, { email: 'victim@acme.test', password: PASSWORD }, '198.51.100.7')).statusCode).toBe(
      429,
    );

    // The person's own device still signs in, from the very same address.
    expect(
      (await device.request('POST', '/api/auth/login', { email: 'victim@acme.test', password: PASSWORD })).statusCode,
    ).toBe(200);
  });

  test('a forged or altered known-device cookie counts as a new device', async () => {
    const forged = await stack.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '100.64.0.1',
      payload: { email: 'victim@acme.test', password: PASSWORD },
      headers: {
        cookie: `${KNOWN_DEVICE_COOKIE}=v1:${Buffer.from('{"a":"*|victim@acme.test","d":"x","e":99999999999999}').toString('base64')}`,
      },
    });
    expect(forged.statusCode).toBe(429);
  });

  test('a known device that keeps guessing is throttled on its own', async () => {
    await createUser(stack, { email: 'guesser@acme.test', role: 'USER', companyId: acme });
    const device = new Browser(stack, '100.64.0.2');
    expect(
      (await device.request('POST', '/api/auth/login', { email: 'guesser@acme.test', password: PASSWORD })).statusCode,
    ).toBe(200);
    for (let i = 0; i < 10; i++)
      expect(
        (await device.request('POST', '/api/auth/login', { email: 'guesser@acme.test', password: `wrong ${i}` }))
          .statusCode,
      ).toBe(401);
    expect(
      (await device.request('POST', '/api/auth/login', { email: 'guesser@acme.test', password: PASSWORD })).statusCode,
    ).toBe(429);
  });
});

describe('password reset links', () => {
  const resetUrls = () => resetLinks(stack, 'reset@acme.test');
  const reset = (url: string, password: string) =>
    stack.app.inject({
      method: 'POST',
      url: '/api/auth/password/reset',
      payload: { token: new URL(url).searchParams.get('token')!, password },
    });

  test('never built from the request Host header: the company’s own address without PUBLIC_URL', async () => {
    await createUser(stack, { email: 'reset@acme.test', role: 'USER', companyId: acme });
    const res = await stack.app.inject({
      method: 'POST',
      url: '/api/auth/password/forgot',
      payload: { email: 'reset@acme.test' },
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    });
    expect(res.statusCode).toBe(202);
    const [url] = await resetUrls();
    expect(url).toMatch(/^http:\/\/acme\.localhost:4321\/reset-password\?token=/);
    expect(url).not.toContain('evil');
  });

  test(`at most ${MAX_LIVE_RESETS} live links per account: asking again voids the oldest; each works once`, async () => {
    for (let i = 0; i < 4; i++)
      await stack.app.inject({
        method: 'POST',
        url: '/api/auth/password/forgot',
        payload: { email: 'reset@acme.test' },
      });
    const urls = await resetUrls();
    expect(urls).toHaveLength(5);
    const live = await stack.database.query<{ n: number }>(
      `select count(*)::int as n from auth.password_resets where used_at is null and expires_at > now()`,
    );
    expect(live[0]!.n).toBe(MAX_LIVE_RESETS);
    expect((await reset(urls[0]!, 'the oldest link')).statusCode).toBe(400);
    expect((await reset(urls[1]!, 'the second link')).statusCode).toBe(400);
    expect((await reset(urls[4]!, 'the newest link')).statusCode).toBe(200);
    expect((await reset(urls[4]!, 'the newest again')).statusCode).toBe(400);
    expect((await reset(urls[3]!, 'another live one')).statusCode).toBe(400);
  });
});

describe('avatar', () => {
  let n = 0;
  const register = async (avatar: string) =>
    stack.as(await stack.tokenFor('HOST_ADMIN', null), {
      method: 'POST',
      url: '/api/users/register',
      payload: {
        firstName: 'A',
        lastName: 'B',
        email: `avatar${++n}@acme.test`,
        password: PASSWORD,
        role: 'USER',
        companyId: acme,
        avatar,
      },
    });

  test.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:image/svg+xml;base64,PHN2Zz4=',
    'file:///etc/passwd',
    'http://example.com/a.png',
    '/uploads/../secret',
    '/api/uploads/../../etc',
    'vbscript:x',
    '//evil.example/a.png',
  ])('%s is refused, naming the field', async (avatar) => {
    const res = await register(avatar);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/avatar/);
  });

  test.each(['/api/uploads/avatars/me.png', 'https://images.example.com/me.png'])('%s is accepted', async (avatar) => {
    const res = await register(avatar);
    expect(res.statusCode).toBe(201);
    expect(res.json().avatar).toBe(avatar);
  });
});
