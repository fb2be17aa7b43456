import { randomBytes } from 'node:crypto';
import {
  BlindIndex,
  DecryptionError,
  isSealed,
  isSealedEnvelope,
  openJson,
  openText,
  sealJson,
  sealText,
  sealedEnvelope,
} from '../src/crypto';

const key = randomBytes(32);
const companyA = '00000000-0000-4000-8000-00000000000a';
const companyB = '00000000-0000-4000-8000-00000000000b';
const segments = { companyId: companyA, purpose: 'transcription.transcripts.segments' };

test('a sealed value opens with the same key, company and purpose, and holds no plaintext', () => {
  const sealed = sealText(key, segments, 'the parcel arrived on Tuesday');
  expect(sealed).toMatch(/^ef1\.[A-Za-z0-9_-]+$/);
  expect(sealed).not.toContain('parcel');
  expect(Buffer.from(sealed.slice(4), 'base64url').toString('latin1')).not.toContain('parcel');
  expect(openText(key, segments, sealed)).toBe('the parcel arrived on Tuesday');
  // A random nonce: sealing twice gives two values.
  expect(sealText(key, segments, 'the parcel arrived on Tuesday')).not.toBe(sealed);
});

test('JSON values round-trip, and an envelope is recognised only in its exact shape', () => {
  const value = [{ _id: 's1', text: 'héllo wörld', start: 1.5, words: [{ w: 'héllo' }] }];
  const sealed = sealJson(key, segments, value);
  expect(openJson(key, segments, sealed)).toEqual(value);
  expect(isSealedEnvelope(sealedEnvelope(sealed))).toBe(true);
  expect(isSealedEnvelope(value)).toBe(false);
  expect(isSealedEnvelope({ enc: sealed, text: 'x' })).toBe(false);
  expect(isSealedEnvelope({ enc: 'plain words' })).toBe(false);
  expect(isSealed('ef1.')).toBe(true);
  expect(isSealed(42)).toBe(false);
});

test('a value moved to another company or column, opened with another key, or altered, fails authentication', () => {
  const sealed = sealText(key, segments, 'secret words');
  expect(() => openText(key, { ...segments, companyId: companyB }, sealed)).toThrow(DecryptionError);
  expect(() => openText(key, { ...segments, purpose: 'transcription.edits.segments_after' }, sealed)).toThrow(
    DecryptionError,
  );
  expect(() => openText(randomBytes(32), segments, sealed)).toThrow(DecryptionError);
  const raw = Buffer.from(sealed.slice(4), 'base64url');
  raw[raw.length - 1]! ^= 1;
  expect(() => openText(key, segments, `ef1.${raw.toString('base64url')}`)).toThrow(DecryptionError);
  expect(() => openText(key, segments, 'ef1.AAAA')).toThrow(DecryptionError);
  expect(() => openText(key, segments, 'plain words')).toThrow(DecryptionError);
  expect(() => sealText(randomBytes(16), segments, 'x')).toThrow(DecryptionError);
});

test('the blind index gives one stable hex token per normalised lexeme, different per company and key', () => {
  const index = new BlindIndex(key, companyA);
  const token = index.token('parcel');
  expect(token).toMatch(/^[0-9a-f]{32}$/);
  expect(index.token(' PARCEL ')).toBe(token);
  // NFC: a decomposed "é" is the same lexeme as the composed one.
  expect(index.token('cafe\u0301')).toBe(index.token('caf\u00e9'));
  expect(new BlindIndex(key, companyA).token('parcel')).toBe(token);
  expect(index.token('parcels')).not.toBe(token);
  expect(new BlindIndex(key, companyB).token('parcel')).not.toBe(token);
  expect(new BlindIndex(randomBytes(32), companyA).token('parcel')).not.toBe(token);
  expect(new BlindIndex(key, companyA, 'speakers').token('parcel')).not.toBe(token);
});
