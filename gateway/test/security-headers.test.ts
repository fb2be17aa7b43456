import Fastify from 'fastify';
import helmet from '@fastify/helmet';
import { TokenVerifier, createLogger } from '@earshot/kit';
import { buildGateway, securityHeaders } from '../src/app';

test('the captured security headers are what @fastify/helmet sets, the CSP included', async () => {
  const options = {
    contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], frameAncestors: ["'none'"] } },
    crossOriginEmbedderPolicy: false,
  };
  const headers = await securityHeaders(options);
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['strict-transport-security']).toMatch(/max-age=/);
  expect(headers).not.toHaveProperty('cross-origin-embedder-policy');

  const plugin = Fastify();
  await plugin.register(helmet, options);
  plugin.get('/', async () => ({ ok: true }));
  const answer = await plugin.inject({ method: 'GET', url: '/' });
  await plugin.close();
  for (const [name, value] of Object.entries(headers)) expect(answer.headers[name]).toBe(value);
});

test('every gateway answer carries them: an API route, a refusal and an unknown path', async () => {
  const app = await buildGateway({
    logger: createLogger('silent'),
    logLevel: 'silent',
    tokens: new TokenVerifier(900),
    bodyLimit: 1024,
    rateLimitMax: 100,
    rateLimitWindowMs: 60_000,
    signInRateLimitMax: 10,
    apiKeyRateLimitMax: 100,
    trustProxy: false,
  });
  app.get('/api/things', { config: { access: 'public' } }, async () => ({ ok: true }));
  app.get('/api/mine', { config: { access: ['USER'] } }, async () => ({ ok: true }));
  try {
    for (const [url, status] of [
      ['/api/things', 200],
      ['/api/mine', 401],
      ['/api/nowhere', 404],
    ] as const) {
      const answer = await app.inject({ method: 'GET', url });
      expect(answer.statusCode).toBe(status);
      expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
      // Images from Earshot only: no other host is fetched when a page shows one.
      expect(answer.headers['content-security-policy']).toContain("img-src 'self' data: blob:;");
      expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
  } finally {
    await app.close();
  }
});
