import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { MASTER_KEY_MESSAGES } from '@earshot/contracts';
import { ConfigError } from '../config';

const HEX_KEY = /^[0-9a-fA-F]{64}$/;

/**
 * Environment keys of encryption at rest. Every service that stores encrypted data (file,
 * transcription, chat) reads the same master key: 64 hex characters (32 bytes) given inline or as
 * a file holding them. ENCRYPTION_PREVIOUS_MASTER_KEY is accepted for unwrapping only, while
 * `npm run keys -- rotate` rewraps data keys under the new one.
 */
export const encryptionConfigShape = {
  ENCRYPTION_MASTER_KEY: z.string().regex(HEX_KEY, 'must be 64 hex characters (32 bytes)').optional(),
  ENCRYPTION_MASTER_KEY_FILE: z.string().min(1).optional(),
  ENCRYPTION_PREVIOUS_MASTER_KEY: z.string().regex(HEX_KEY, 'must be 64 hex characters (32 bytes)').optional(),
};
export type EncryptionConfig = {
  ENCRYPTION_MASTER_KEY?: string;
  ENCRYPTION_MASTER_KEY_FILE?: string;
  ENCRYPTION_PREVIOUS_MASTER_KEY?: string;
};

export class KeyUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyUnavailableError';
  }
}

/**
 * A company's data is to be encrypted (or read) but this process has no master key configured: a
 * fault of the deployment, not of the request nor of the data. The kit's error handler answers it
 * 503 with its message, which names the variable to set, wherever it is thrown (an upload, a
 * transcript, a chat message), so no route maps it and none answers it as a bare 500.
 */
export class MasterKeyMissingError extends KeyUnavailableError {
  constructor(message: string = MASTER_KEY_MESSAGES.unavailable) {
    super(message);
    this.name = 'MasterKeyMissingError';
  }
}

/** A short public name of a master key (not secret: a hash prefix), stored beside each wrapped key. */
function idOf(key: Buffer): string {
  return createHash('sha256').update('earshot-master-key-id').update(key).digest('hex').slice(0, 16);
}

/**
 * The master key(s) that wrap each company's data keys (AES-256-GCM). Wrapped form:
 * `mk1:<master key id>:<base64(iv | tag | ciphertext)>`, the company id bound as additional data
 * so a wrapped key cannot be moved to another company's row.
 */
export class MasterKeys {
  private readonly keys = new Map<string, Buffer>();
  readonly currentId: string | null;

  constructor(current: Buffer | null, previous: Buffer[] = []) {
    this.currentId = current ? idOf(current) : null;
    for (const key of [...(current ? [current] : []), ...previous]) this.keys.set(idOf(key), key);
  }

  get configured(): boolean {
    return this.currentId !== null;
  }

  wrap(companyId: string, dataKey: Buffer): string {
    if (!this.currentId) throw new MasterKeyMissingError();
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentId)!, iv);
    cipher.setAAD(Buffer.from(companyId));
    const body = Buffer.concat([cipher.update(dataKey), cipher.final()]);
    return `mk1:${this.currentId}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  /** The master key id a wrapped key was sealed under. */
  static idOfWrapped(wrapped: string): string {
    return wrapped.split(':')[1] ?? '';
  }

  unwrap(companyId: string, wrapped: string): Buffer {
    const [version, id, body] = wrapped.split(':');
    if (version !== 'mk1' || !id || !body) throw new KeyUnavailableError('Unknown wrapped-key format');
    const key = this.keys.get(id);
    if (!key) throw new KeyUnavailableError(`The data key was wrapped by master key ${id}, which is not configured`);
    const raw = Buffer.from(body, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(companyId));
    decipher.setAuthTag(raw.subarray(12, 28));
    try {
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
    } catch {
      throw new KeyUnavailableError('The wrapped data key failed authentication');
    }
  }
}

/**
 * The master keys of the configuration. A key file must hold exactly the 64 hex characters
 * (surrounding whitespace allowed); a ConfigError names what is wrong, so the process does not start.
 */
export function masterKeysFrom(config: EncryptionConfig): MasterKeys {
  if (config.ENCRYPTION_MASTER_KEY && config.ENCRYPTION_MASTER_KEY_FILE) {
    throw new ConfigError([
      'ENCRYPTION_MASTER_KEY_FILE: give either ENCRYPTION_MASTER_KEY or ENCRYPTION_MASTER_KEY_FILE, not both',
    ]);
  }
  let hex = config.ENCRYPTION_MASTER_KEY;
  if (config.ENCRYPTION_MASTER_KEY_FILE) {
    let text: string;
    try {
      text = readFileSync(config.ENCRYPTION_MASTER_KEY_FILE, 'utf8').trim();
    } catch (error) {
      throw new ConfigError([
        `ENCRYPTION_MASTER_KEY_FILE: cannot read ${config.ENCRYPTION_MASTER_KEY_FILE} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      ]);
    }
    if (!HEX_KEY.test(text))
      throw new ConfigError(['ENCRYPTION_MASTER_KEY_FILE: the file must hold 64 hex characters (32 bytes)']);
    hex = text;
  }
  const previous = config.ENCRYPTION_PREVIOUS_MASTER_KEY
    ? [Buffer.from(config.ENCRYPTION_PREVIOUS_MASTER_KEY, 'hex')]
    : [];
  return new MasterKeys(hex ? Buffer.from(hex, 'hex') : null, previous);
}
