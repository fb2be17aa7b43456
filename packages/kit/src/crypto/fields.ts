import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { DecryptionError } from './chunked';

/**
 * Encrypted fields: single values (a transcript's segments, a chat message's text) stored in a
 * database column under a company's data key. Stable API, shared by the services that
 * keep a company's words (transcription, chat, prompt):
 *
 *   sealText(key, { companyId, purpose }, text) → 'ef1.<base64url(nonce | tag | ciphertext)>'
 *   openText(key, { companyId, purpose }, sealed) → text (DecryptionError when it does not authenticate)
 *   sealJson / openJson: the same for any JSON value
 *   sealedEnvelope(sealed) → { enc: sealed }, isSealedEnvelope(value): a sealed value in a JSONB column
 *
 * AES-256-GCM with a random 12-byte nonce per value. The additional data binds the value to the
 * company and to a purpose naming what it is (e.g. 'transcription.transcripts.segments'; a caller
 * may add a row id): a value copied to another company's row, or to a column of another meaning,
 * fails authentication instead of being read as that column's value.
 */
export const FIELD_PREFIX = 'ef1.';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export interface FieldContext {
  companyId: string;
  /** What the value is (table and column, optionally a row id); the same string must be given to open it. */
  purpose: string;
}

/** The form of a sealed value inside a JSONB column, so the column stays valid JSON. */
export interface SealedEnvelope {
  enc: string;
}

function aadOf(context: FieldContext): Buffer {
  return Buffer.from(`${FIELD_PREFIX}\0${context.companyId}\0${context.purpose}`, 'utf8');
}

function assertKey(key: Buffer): void {
  if (key.length !== 32) throw new DecryptionError('A field key must be 32 bytes');
}

export function sealText(key: Buffer, context: FieldContext, text: string): string {
  assertKey(key);
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(aadOf(context));
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return FIELD_PREFIX + Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64url');
}

export function openText(key: Buffer, context: FieldContext, sealed: string): string {
  assertKey(key);
  if (!isSealed(sealed)) throw new DecryptionError('Not a sealed field (unknown format)');
  const raw = Buffer.from(sealed.slice(FIELD_PREFIX.length), 'base64url');
  if (raw.length < NONCE_BYTES + TAG_BYTES) throw new DecryptionError('A sealed field is truncated');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, NONCE_BYTES));
  decipher.setAAD(aadOf(context));
  decipher.setAuthTag(raw.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new DecryptionError('A sealed field failed authentication (another key, company or purpose, or altered)');
  }
}

export function sealJson(key: Buffer, context: FieldContext, value: unknown): string {
  return sealText(key, context, JSON.stringify(value));
}

export function openJson<T = unknown>(key: Buffer, context: FieldContext, sealed: string): T {
  return JSON.parse(openText(key, context, sealed)) as T;
}

export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(FIELD_PREFIX);
}

export function sealedEnvelope(sealed: string): SealedEnvelope {
  return { enc: sealed };
}

/** A JSONB value that is a sealed envelope (`{"enc": "ef1..."}`, nothing else), not plain data. */
export function isSealedEnvelope(value: unknown): value is SealedEnvelope {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length === 1 &&
    isSealed((value as { enc?: unknown }).enc)
  );
}

/**
 * A blind index: lexemes replaced by a keyed hash, so a database can match words (equality only)
 * in a company's encrypted text without holding the words. The key is derived from the company's
 * data key with HKDF-SHA256 (salt: the company id; info names the purpose, 'search' by default),
 * so destroying the data key also makes the index meaningless, and two companies' indexes of one
 * word differ. Trade-off: within one company equal lexemes give equal tokens (how often a word
 * occurs is visible to someone reading the database), and only whole lexemes match (no prefixes).
 *
 * A token is 32 lowercase hex characters (HMAC-SHA256 truncated to 128 bits): valid as a
 * PostgreSQL tsvector lexeme with no quoting issue.
 */
export class BlindIndex {
  private readonly key: Buffer;

  constructor(dataKey: Buffer, companyId: string, purpose = 'search') {
    assertKey(dataKey);
    this.key = Buffer.from(
      hkdfSync(
        'sha256',
        dataKey,
        Buffer.from(companyId, 'utf8'),
        Buffer.from(`earshot blind index v1:${purpose}`, 'utf8'),
        32,
      ),
    );
  }

  /** The token of one lexeme (already stemmed by the caller's dictionary), normalised: NFC, lower case, trimmed. */
  token(lexeme: string): string {
    return createHmac('sha256', this.key).update(normaliseLexeme(lexeme), 'utf8').digest('hex').slice(0, 32);
  }
}

export function normaliseLexeme(lexeme: string): string {
  return lexeme.normalize('NFC').trim().toLowerCase();
}
