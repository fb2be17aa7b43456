import Fastify from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { clearCookie, cookieIsSecure, setCookie } from '../src';

test('each cookie set on a reply is sent exactly once, with its attributes', async () => {
  const app = Fastify();
  await app.register(fastifyCookie);
  app.get('/', async (_request, reply) => {
    clearCookie(reply, false, 'old', '/');
    setCookie(reply, true, 'access', 'a b', { path: '/api', maxAge: 60 });
    setCookie(reply, false, 'refresh', 'r', { path: '/api/auth' });
    return { ok: true };
  });
  const res = await app.inject({ method: 'GET', url: '/' });
  expect(res.headers['set-cookie']).toEqual([
    'old=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Strict',
    'access=a%20b; Max-Age=60; Path=/api; HttpOnly; Secure; SameSite=Strict',
    'refresh=r; Path=/api/auth; HttpOnly; SameSite=Strict',
  ]);
  await app.close();
});

describe('Secure cookies whenever the console is served over https', () => {
  async function secureFor(options: {
    trustProxy: boolean;
    config: Parameters<typeof cookieIsSecure>[0];
    headers?: Record<string, string>;
  }) {
    const app = Fastify({ trustProxy: options.trustProxy });
    app.get('/', async (request) => ({ secure: cookieIsSecure(options.config, request) }));
    const res = await app.inject({ method: 'GET', url: '/', headers: options.headers });
    await app.close();
    return (res.json() as { secure: boolean }).secure;
  }
  const auto = { COOKIE_SECURE: 'auto' as const, PUBLIC_URL: undefined };
  const httpsProxy = { 'x-forwarded-proto': 'https' };

  test('behind a proxy with TRUST_PROXY, the forwarded https counts', async () => {
    expect(await secureFor({ trustProxy: true, config: auto, headers: httpsProxy })).toBe(true);
    expect(await secureFor({ trustProxy: true, config: auto })).toBe(false);
  });

  test('without TRUST_PROXY a client cannot claim https', async () => {
    expect(await secureFor({ trustProxy: false, config: auto, headers: httpsProxy })).toBe(false);
  });

  test('an https PUBLIC_URL makes them Secure even when the proxy does not say so', async () => {
    expect(
      await secureFor({
        trustProxy: false,
        config: { COOKIE_SECURE: 'auto', PUBLIC_URL: 'https://console.example.com' },
      }),
    ).toBe(true);
  });

  test('true and false are obeyed as given', async () => {
    expect(await secureFor({ trustProxy: false, config: { COOKIE_SECURE: 'true', PUBLIC_URL: undefined } })).toBe(true);
    expect(
      await secureFor({
        trustProxy: true,
        config: { COOKIE_SECURE: 'false', PUBLIC_URL: 'https://x.example' },
        headers: httpsProxy,
      }),
    ).toBe(false);
  });
});
