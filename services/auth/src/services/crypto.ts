import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** An unguessable token for cookies and links (256 bits). */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored only as their SHA-256: a database leak does not leak sessions. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/**
 * Encrypts small secrets at rest (two-step secrets) with AES-256-GCM. The key is SECRETS_KEY, or,
 * when a process has none, one derived from JWT_SECRET.
 */
export class SecretBox {
  private readonly key: Buffer;
  constructor(secretsKeyHex: string | undefined, fallback: string) {
    this.key = secretsKeyHex ? Buffer.from(secretsKeyHex, 'hex') : createHash('sha256').update(`earshot-auth-secrets:${fallback}`).digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  open(sealed: string): string {
    const raw = Buffer.from(sealed.slice(3), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
