import { describe, expect, it } from '@jest/globals';
import { clampStart, parseStartTime } from './start-time';

describe('?t= of the viewer', () => {
  it('reads seconds and m:ss', () => {
    expect(parseStartTime('5')).toBe(5);
    expect(parseStartTime(' 12.5 ')).toBe(12.5);
    expect(parseStartTime('1:05')).toBe(65);
    expect(parseStartTime('0')).toBe(0);
  });

  it('ignores anything else', () => {
    for (const value of [null, '', '-3', 'abc', '5s', '1:75', 'Infinity', '1e3', '0x10'])
      expect(parseStartTime(value)).toBeNull();
  });

  it('keeps the start inside the recording', () => {
    expect(clampStart(500, 60)).toBe(60);
    expect(clampStart(5, 60)).toBe(5);
    expect(clampStart(5, 0)).toBe(5);
  });
});
