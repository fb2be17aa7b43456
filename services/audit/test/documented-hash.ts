import { createHash } from 'node:crypto';

/** JSON with keys sorted at every depth, written here from the documented format, not imported. */
const sortedJson = (value: unknown): string =>
  value === null || typeof value !== 'object'
    ? JSON.stringify(value)
    : Array.isArray(value)
      ? `[${value.map(sortedJson).join(',')}]`
      : `{${Object.keys(value)
          .sort()
          .map((key) => `${JSON.stringify(key)}:${sortedJson((value as Record<string, unknown>)[key])}`)
          .join(',')}}`;

/**
 * An entry's hash as an outside consumer computes it from a stream line or a Kafka message alone
 * (the README, "Hash chain"): SHA-256, hex, of the entry as canonical JSON.
 */
export const documentedHash = (entry: unknown): string =>
  createHash('sha256').update(sortedJson(entry), 'utf8').digest('hex');
