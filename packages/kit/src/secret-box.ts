import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Encrypts small secrets at rest (two-step secrets, AI provider keys) with AES-256-GCM. The key is
 * SECRETS_KEY, or, when a process has none, one derived from JWT_SECRET and the purpose, so every
 * service of one deployment that shares those settings can open what another sealed.
 * Sealed form: `v1:` + base64(iv | tag | ciphertext).
 */
export class SecretBox {
  private readonly key: Buffer;
  constructor(secretsKeyHex: string | undefined, fallback: string, purpose = 'auth') {
    this.key = secretsKeyHex
      ? Buffer.from(secretsKeyHex, 'hex')
      : createHash('sha256').update(`earshot-${purpose}-secrets:${fallback}`).digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  /** Throws when the value was sealed under another key or altered. */
  open(sealed: string): string {
    if (!sealed.startsWith('v1:')) throw new Error('Unknown sealed-secret format');
    const raw = Buffer.from(sealed.slice(3), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}

/**
 * The box for one purpose of a deployment: every service given the same SECRETS_KEY (or, without
 * it, the same JWT_SECRET) opens what another sealed for that purpose.
 */
export function secretBox(config: { SECRETS_KEY?: string; JWT_SECRET?: string }, purpose: string): SecretBox {
  return new SecretBox(config.SECRETS_KEY, config.JWT_SECRET ?? 'earshot', purpose);
}
