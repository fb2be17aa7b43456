import Fastify from 'fastify';
import { clearCookie, setCookie } from '../src';

test('each cookie set on a reply is sent exactly once', async () => {
  const app = Fastify();
  app.get('/', async (_request, reply) => {
    clearCookie(reply, false, 'old', '/');
    setCookie(reply, true, 'access', 'a b', { path: '/api', maxAge: 60 });
    setCookie(reply, false, 'refresh', 'r', { path: '/api/auth' });
    return { ok: true };
  });
  const res = await app.inject({ method: 'GET', url: '/' });
  expect(res.headers['set-cookie']).toEqual([
    'old=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0',
    'access=a%20b; Path=/api; HttpOnly; SameSite=Strict; Max-Age=60; Secure',
    'refresh=r; Path=/api/auth; HttpOnly; SameSite=Strict',
  ]);
  await app.close();
});
