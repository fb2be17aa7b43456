import { describe, expect, it } from '@jest/globals';
import { formatClock, formatDate, formatSize, formatSpan } from './format';

describe('transcript formatting', () => {
  it("writes the upload date as 'Mon D, YYYY'", () => {
    expect(formatDate('2025-03-07T12:00:00.000Z', 'en', 'UTC')).toBe('Mar 7, 2025');
    expect(formatDate('2024-12-31T23:30:00.000Z', 'en', 'UTC')).toBe('Dec 31, 2024');
    // The day is the reader's: 23:30 UTC is already January 1st in Tallinn.
    expect(formatDate('2024-12-31T23:30:00.000Z', 'en', 'Europe/Tallinn')).toBe('Jan 1, 2025');
    expect(formatDate('not a date')).toBe('—');
  });

  it('uses the same parts in other languages', () => {
    expect(formatDate('2025-03-07T12:00:00.000Z', 'fr', 'UTC')).toMatch(/7.*mars.*2025/);
  });

  it('writes times as m:ss', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(5.9)).toBe('0:05');
    expect(formatClock(65)).toBe('1:05');
    expect(formatClock(600)).toBe('10:00');
    expect(formatClock(3 * 3600 + 4)).toBe('180:04');
    expect(formatClock(Number.NaN)).toBe('0:00');
    expect(formatClock(-3)).toBe('0:00');
  });

  it('writes sizes for people', () => {
    expect(formatSize(0)).toBe('0 B');
    expect(formatSize(912)).toBe('912 B');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(1024 * 1024)).toBe('1 MB');
    expect(formatSize(250 * 1024 * 1024)).toBe('250 MB');
    expect(formatSize(3.25 * 1024 ** 3)).toBe('3.3 GB');
  });

  it('writes spans of the call analytics with a decimal under a minute', () => {
    expect(formatSpan(0.4)).toBe('0.4 s');
    expect(formatSpan(12)).toBe('12 s');
    expect(formatSpan(59.96)).toBe('60 s');
    expect(formatSpan(65)).toBe('1:05');
    expect(formatSpan(-1)).toBe('0 s');
  });
});
