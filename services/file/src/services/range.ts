import type { ByteRange } from '@earshot/kit';

export type RangeResult =
  | { kind: 'full' }
  | { kind: 'partial'; range: ByteRange }
  | { kind: 'unsatisfiable' };

const SPEC = /^bytes=(\d*)-(\d*)$/;

/**
 * Reads a Range header for an object of `size` bytes: `bytes=a-b`, `bytes=a-` and the suffix
 * `bytes=-n` give one range (the end is clamped to the object); a range that starts past the end,
 * an empty suffix, an end before the start or a malformed byte spec is unsatisfiable (416). Other
 * units and several ranges at once are answered with the whole object, as HTTP allows.
 */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (header === undefined) return { kind: 'full' };
  const value = header.trim();
  if (!/^bytes=/i.test(value)) return { kind: 'full' };
  if (value.includes(',')) return { kind: 'full' };
  const match = SPEC.exec(value.replace(/^bytes=/i, 'bytes=').replace(/\s+/g, ''));
  if (!match) return { kind: 'unsatisfiable' };
  const [, first, last] = match as unknown as [string, string, string];
  if (first === '' && last === '') return { kind: 'unsatisfiable' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  if (start >= size) return { kind: 'unsatisfiable' };
  if (last === '') return { kind: 'partial', range: { start, end: size - 1 } };
  const end = Number(last);
  if (end < start) return { kind: 'unsatisfiable' };
  return { kind: 'partial', range: { start, end: Math.min(end, size - 1) } };
}
