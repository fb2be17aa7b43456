import { randomBytes } from 'node:crypto';
import { hashApiKey } from '@earshot/kit';

/** A new company API key: shown once, stored only as its SHA-256 (the key is 192 random bits). */
export function generateApiKey(): { key: string; hash: string; last4: string } {
  const key = `esk_${randomBytes(24).toString('base64url')}`;
  return { key, hash: hashApiKey(key), last4: key.slice(-4) };
}

export const maskApiKey = (last4: string | null): string | null => (last4 ? `****${last4}` : null);
