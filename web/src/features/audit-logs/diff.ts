// A key-by-key comparison of an entry's before and after, for the detail drawer. Nested objects
// are walked (paths like "branding.primary"); arrays and plain values are compared whole.

export type Change = 'added' | 'removed' | 'changed' | 'same';

export interface DiffRow {
  path: string;
  /** undefined: the key is absent on that side. */
  before: unknown;
  after: unknown;
  change: Change;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function flatten(value: unknown, prefix: string, out: Map<string, unknown>): void {
  if (isPlainObject(value) && (prefix === '' || Object.keys(value).length > 0)) {
    for (const [key, child] of Object.entries(value)) flatten(child, prefix ? `${prefix}.${key}` : key, out);
  } else if (prefix !== '') {
    out.set(prefix, value);
  }
}

function leaves(value: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  // A whole side that is not an object (null before a creation) has no keys.
  if (isPlainObject(value)) flatten(value, '', out);
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Every key of either side, in before's order and then after's new keys, with what happened to it. */
export function diffJson(before: unknown, after: unknown): DiffRow[] {
  const left = leaves(before);
  const right = leaves(after);
  const paths = [...new Set([...left.keys(), ...right.keys()])];
  return paths.map((path) => {
    const inLeft = left.has(path);
    const inRight = right.has(path);
    const b = left.get(path);
    const a = right.get(path);
    const change: Change = !inLeft ? 'added' : !inRight ? 'removed' : same(b, a) ? 'same' : 'changed';
    return { path, before: inLeft ? b : undefined, after: inRight ? a : undefined, change };
  });
}

/** A value as the drawer shows it: JSON, so a string "1" and a number 1 look different. */
export function showValue(value: unknown): string {
  return value === undefined ? '' : JSON.stringify(value);
}
