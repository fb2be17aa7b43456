import { ScureBase32Plugin, generateSync } from 'otplib';
import { generateSecret, matchStep, otpauthUrl } from '../src/services/totp';

// RFC 6238 appendix B (SHA-1) with the RFC 4226 secret "12345678901234567890"; we use 6 digits.
const base32 = new ScureBase32Plugin();
const secret = base32.encode(new TextEncoder().encode('12345678901234567890'));
const codeAt = (ms: number) => generateSync({ strategy: 'totp', secret, epoch: Math.floor(ms / 1000) });

test.each([
  [59, '287082'],
  [1111111109, '081804'],
  [1111111111, '050471'],
  [1234567890, '005924'],
  [2000000000, '279037'],
])('the RFC 6238 code at %i s is accepted, at its own step', async (seconds, code) => {
  expect(await matchStep(secret, code, seconds * 1000)).toBe(Math.floor(seconds / 30));
});

test('HOTP codes of RFC 4226 appendix D are what our settings produce', () => {
  expect([0, 1, 2, 9].map((counter) => generateSync({ strategy: 'hotp', secret, counter }))).toEqual([
    '755224',
    '287082',
    '359152',
    '520489',
  ]);
});

test('codes are accepted one step either side, not two; malformed codes are no match', async () => {
  const now = 1_700_000_000_000;
  expect(await matchStep(secret, codeAt(now), now)).toBe(Math.floor(now / 30_000));
  expect(await matchStep(secret, codeAt(now - 30_000), now)).not.toBeNull();
  expect(await matchStep(secret, codeAt(now + 30_000), now)).not.toBeNull();
  expect(await matchStep(secret, codeAt(now - 60_000), now)).toBeNull();
  expect(await matchStep(secret, '12345', now)).toBeNull();
  expect(await matchStep(secret, 'abcdef', now)).toBeNull();
});

test('a new secret is 160 bits of base32; the otpauth URL names issuer, account and settings', async () => {
  const fresh = await generateSecret();
  expect(base32.decode(fresh)).toHaveLength(20);
  const url = new URL(await otpauthUrl('Earshot', 'user@acme.test', fresh));
  expect(url.protocol).toBe('otpauth:');
  expect(decodeURIComponent(url.pathname)).toMatch(/Earshot:user@acme\.test$/);
  expect(Object.fromEntries(url.searchParams)).toMatchObject({ secret: fresh, issuer: 'Earshot' });
});
