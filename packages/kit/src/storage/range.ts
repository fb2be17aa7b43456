import parseRangeHeader from 'range-parser';
import type { ByteRange } from './types';

export type RangeResult = { kind: 'full' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' };

const SUFFIX = /^bytes=-(\d+)$/i;

/**
 * Reads a Range header for an object of `size` bytes (range-parser): `bytes=a-b`, `bytes=a-` and
 * the suffix `bytes=-n` give one range, its end clamped to the object; a range that starts past
 * the end, an empty suffix, an end before the start or a malformed byte spec is unsatisfiable
 * (416). Other units and several ranges at once are answered with the whole object, as HTTP allows.
 */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (header === undefined) return { kind: 'full' };
  const value = header.replace(/\s+/g, '');
  if (!/^bytes=/i.test(value) || value.includes(',')) return { kind: 'full' };
  // range-parser refuses a suffix longer than the object; HTTP (RFC 9110 14.1.2) means all of it.
  const suffix = SUFFIX.exec(value);
  const spec = suffix && size > 0 && Number(suffix[1]) > size ? 'bytes=0-' : value;
  const ranges = parseRangeHeader(size, spec);
  if (ranges === -1 || ranges === -2) return { kind: 'unsatisfiable' };
  const { start, end } = ranges[0]!;
  return { kind: 'partial', range: { start, end } };
}
