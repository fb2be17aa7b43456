import { describe, expect, it } from '@jest/globals';
import { diffJson, showValue } from './diff';

describe('diffJson', () => {
  it('marks changed, same, added and removed keys, nested ones by path', () => {
    const before = { name: 'Acme', status: 'active', branding: { primary: '#111111', accent: '#222222' }, old: 1 };
    const after = {
      name: 'Acme Corp',
      status: 'active',
      branding: { primary: '#111111', accent: '#333333' },
      maxUsers: 5,
    };
    expect(diffJson(before, after)).toEqual([
      { path: 'name', before: 'Acme', after: 'Acme Corp', change: 'changed' },
      { path: 'status', before: 'active', after: 'active', change: 'same' },
      { path: 'branding.primary', before: '#111111', after: '#111111', change: 'same' },
      { path: 'branding.accent', before: '#222222', after: '#333333', change: 'changed' },
      { path: 'old', before: 1, after: undefined, change: 'removed' },
      { path: 'maxUsers', before: undefined, after: 5, change: 'added' },
    ]);
  });

  it('treats a creation (no before) as all added and a deletion as all removed', () => {
    expect(diffJson(null, { a: 1 })).toEqual([{ path: 'a', before: undefined, after: 1, change: 'added' }]);
    expect(diffJson({ a: 1 }, null)).toEqual([{ path: 'a', before: 1, after: undefined, change: 'removed' }]);
    expect(diffJson(null, null)).toEqual([]);
  });

  it('compares arrays whole, tells a string from a number, and keeps null as a value', () => {
    expect(
      diffJson({ tags: ['a', 'b'], n: 1, x: null }, { tags: ['a', 'b'], n: '1', x: null }).map((row) => [
        row.path,
        row.change,
      ]),
    ).toEqual([
      ['tags', 'same'],
      ['n', 'changed'],
      ['x', 'same'],
    ]);
    expect(diffJson({ tags: ['a'] }, { tags: ['a', 'b'] })[0]!.change).toBe('changed');
    // An empty object is a value, not nothing.
    expect(diffJson({ meta: {} }, { meta: { k: 1 } })).toEqual([
      { path: 'meta', before: {}, after: undefined, change: 'removed' },
      { path: 'meta.k', before: undefined, after: 1, change: 'added' },
    ]);
  });

  it('shows values as JSON and an absent value as nothing', () => {
    expect(showValue('1')).toBe('"1"');
    expect(showValue(1)).toBe('1');
    expect(showValue(undefined)).toBe('');
  });
});
