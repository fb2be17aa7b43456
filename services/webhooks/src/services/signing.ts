import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret as Standard Webhooks writes them: `whsec_` + base64 of 32 random bytes. */
export const newSecret = (): string => `${PREFIX}${randomBytes(32).toString('base64')}`;

/**
 * One `v1,` signature: base64 HMAC-SHA256, keyed with the secret's bytes, of `id.timestamp.body`
 * (what every Standard Webhooks verifier recomputes).
 */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * The headers of one attempt. The id stays the same across attempts (receivers drop repeats by
 * it); the timestamp is the attempt's, since verifiers refuse old ones. Each secret given signs:
 * space-separated signatures, any of which a receiver may accept.
 */
export function signedHeaders(
  secrets: readonly string[],
  id: string,
  body: string,
  now: Date = new Date(),
): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => signature(secret, id, timestamp, body)).join(' '),
  };
}
