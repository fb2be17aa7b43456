import { SignJWT } from 'jose';
import { TokenService } from '../src';
import { TEST_JWT_SECRET } from '../src/testing';

const identity = { userId: 'user-1', companyId: 'company-1', role: 'ADMIN' as const, email: 'admin@acme.test' };
const tokens = new TokenService(TEST_JWT_SECRET, 900);
const key = new TextEncoder().encode(TEST_JWT_SECRET);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

/** A token with our claims signed by `secret`, with chosen times, issuer and audience. */
function craft(secret: Uint8Array, claims: { iat: number; exp: number; iss?: string; aud?: string; role?: string }) {
  return new SignJWT({ cid: identity.companyId, role: claims.role ?? identity.role, email: identity.email })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(identity.userId)
    .setIssuer(claims.iss ?? 'earshot-auth')
    .setAudience(claims.aud ?? 'earshot-api')
    .setIssuedAt(claims.iat)
    .setExpirationTime(claims.exp)
    .sign(secret);
}

test('a token it signed verifies back to the same identity', async () => {
  expect(await tokens.verify(await tokens.sign(identity))).toEqual(identity);
  // The crafting helper matches real tokens, so the rejections below are about one thing each.
  expect(await tokens.verify(await craft(key, { iat: now(), exp: now() + 60 }))).toEqual(identity);
});

test('an expired token is rejected', async () => {
  expect(await tokens.verify(await craft(key, { iat: now() - 3600, exp: now() - 60 }))).toBeNull();
});

test('a token signed with another secret is rejected', async () => {
  const other = new TextEncoder().encode('another-secret-another-secret-another-secret');
  expect(await tokens.verify(await craft(other, { iat: now(), exp: now() + 60 }))).toBeNull();
});

test('a token whose payload was altered after signing is rejected', async () => {
  const [header, , signature] = (await tokens.sign(identity)).split('.');
  const payload = b64({ sub: identity.userId, cid: null, role: 'HOST_ADMIN', email: identity.email, iss: 'earshot-auth', aud: 'earshot-api', iat: now(), exp: now() + 60 });
  expect(await tokens.verify(`${header}.${payload}.${signature}`)).toBeNull();
});

test('an unsigned token (alg none) is rejected', async () => {
  const payload = b64({ sub: identity.userId, cid: null, role: 'HOST_ADMIN', email: identity.email, iss: 'earshot-auth', aud: 'earshot-api', iat: now(), exp: now() + 60 });
  expect(await tokens.verify(`${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`)).toBeNull();
  expect(await tokens.verify(`${b64({ alg: 'none', typ: 'JWT' })}.${payload}`)).toBeNull();
});

test('wrong issuer or audience, an unknown role and garbage are rejected', async () => {
  expect(await tokens.verify(await craft(key, { iat: now(), exp: now() + 60, iss: 'someone-else' }))).toBeNull();
  expect(await tokens.verify(await craft(key, { iat: now(), exp: now() + 60, aud: 'another-api' }))).toBeNull();
  expect(await tokens.verify(await craft(key, { iat: now(), exp: now() + 60, role: 'SUPERUSER' }))).toBeNull();
  expect(await tokens.verify('not-a-token')).toBeNull();
  expect(await tokens.verify('')).toBeNull();
});
