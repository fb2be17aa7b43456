import { base32Decode, base32Encode, hotp, matchStep, totp } from '../src/services/totp';

// RFC 6238 appendix B (SHA-1) with the RFC 4226 secret "12345678901234567890"; we use 6 digits.
const secret = base32Encode(Buffer.from('12345678901234567890'));

test.each([
  [59, '287082'],
  [1111111109, '081804'],
  [1111111111, '050471'],
  [1234567890, '005924'],
  [2000000000, '279037'],
])('TOTP at %i s is %s', (seconds, code) => {
  expect(totp(secret, seconds * 1000)).toBe(code);
});

test('HOTP matches RFC 4226 appendix D', () => {
  expect([0, 1, 2, 9].map((c) => hotp(secret, c))).toEqual(['755224', '287082', '359152', '520489']);
});

test('codes are accepted one step either side, not two', () => {
  const now = 1_700_000_000_000;
  expect(matchStep(secret, totp(secret, now), now)).toBe(Math.floor(now / 30_000));
  expect(matchStep(secret, totp(secret, now - 30_000), now)).not.toBeNull();
  expect(matchStep(secret, totp(secret, now + 30_000), now)).not.toBeNull();
  expect(matchStep(secret, totp(secret, now - 60_000), now)).toBeNull();
  expect(matchStep(secret, '12345', now)).toBeNull();
});

test('base32 round-trips', () => {
  const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255, 7]);
  expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
  expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
});
