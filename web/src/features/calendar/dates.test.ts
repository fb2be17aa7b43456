// The calendar's day arithmetic: whole weeks from Monday, month edges, and the range asked for.
import { describe, expect, it } from '@jest/globals';
import { addMonths, fetchRange, localDayOf, parseDay, step, visibleDays } from './dates';

describe('calendar dates', () => {
  it('shows a month as whole weeks from Monday: March 2026 (1st a Sunday) is 23 Feb … 5 Apr', () => {
    const days = visibleDays('month', '2026-03-15');
    expect([days[0], days[days.length - 1], days.length]).toEqual(['2026-02-23', '2026-04-05', 42]);
    // February 2021 starts on a Monday and ends on a Sunday: exactly four rows.
    expect(visibleDays('month', '2021-02-10')).toHaveLength(28);
  });

  it('a week runs Monday to Sunday, a day is itself', () => {
    expect(visibleDays('week', '2026-03-15')).toEqual([
      '2026-03-09',
      '2026-03-10',
      '2026-03-11',
      '2026-03-12',
      '2026-03-13',
      '2026-03-14',
      '2026-03-15',
    ]);
    expect(visibleDays('week', '2026-03-16')[0]).toBe('2026-03-16');
    expect(visibleDays('day', '2026-03-29')).toEqual(['2026-03-29']);
  });

  it('asks for one more day on each side (recordings are placed on local days) and stays within the API’s 62', () => {
    expect(fetchRange(visibleDays('month', '2026-03-15'))).toEqual({ from: '2026-02-22', to: '2026-04-06' });
    expect(fetchRange(['2026-12-31'])).toEqual({ from: '2026-12-30', to: '2027-01-01' });
    for (let month = 0; month < 24; month += 1) {
      const { from, to } = fetchRange(visibleDays('month', addMonths('2026-01-01', month)));
      expect((Date.parse(to) - Date.parse(from)) / 86_400_000).toBeLessThan(62);
    }
  });

  it('steps by month keeping the day where it exists, by week and by day across a daylight-saving change', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(step('month', '2026-01-15', -1)).toBe('2025-12-15');
    expect(step('week', '2026-03-27', 1)).toBe('2026-04-03');
    expect(step('day', '2026-03-29', 1)).toBe('2026-03-30');
    expect(step('day', '2026-10-25', -1)).toBe('2026-10-24');
  });

  it('refuses days that do not exist and places a timestamp on the reader’s local day', () => {
    expect(parseDay('2026-02-30')).toBeNull();
    expect(parseDay('2026-2-3')).toBeNull();
    expect(parseDay('2026-02-28')?.toISOString()).toBe('2026-02-28T00:00:00.000Z');
    const local = new Date(2026, 2, 1, 0, 30);
    expect(localDayOf(local.toISOString())).toBe('2026-03-01');
    expect(localDayOf('not a date')).toBeNull();
  });
});
