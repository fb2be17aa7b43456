import { describe, expect, it } from '@jest/globals';
import { DayString, MonthString } from '@earshot/contracts';
import { isDay, isMonth } from './credits-format';

describe('days and months in report addresses', () => {
  it('agree with the contracts’ DayString: calendar days that exist', () => {
    const days = [
      '2026-03-01',
      '2024-02-29',
      '2023-02-29',
      '2024-02-31',
      '2026-04-31',
      '2026-12-31',
      '2026-13-01',
      '2026-00-10',
      '2026-1-01',
      '2026-01-1',
      ' 2026-01-01',
      '2026-01-01T00:00',
      '',
      'yesterday',
    ];
    for (const day of days) expect([day, isDay(day)]).toEqual([day, DayString.safeParse(day).success]);
    expect(isDay('2024-02-29')).toBe(true);
    expect(isDay('2024-02-31')).toBe(false);
  });

  it('agree with the contracts’ MonthString', () => {
    for (const month of ['2026-03', '2026-12', '2026-13', '2026-00', '2026-3', '2026-03-01', ''])
      expect([month, isMonth(month)]).toEqual([month, MonthString.safeParse(month).success]);
  });
});
