import { describe, expect, it } from '@jest/globals';
import { formatDate, formatDateTime, formatDay } from './format-time';

// Each of the console's languages writes dates its own way: the formatter must give exactly what
// Intl gives for that language (the options are spelled out here, so a change to them is seen).
const LANGUAGES = ['en', 'fr', 'et', 'lv'] as const;
const INSTANT = '2026-11-28T14:05:00.000Z';

describe.each(LANGUAGES)('dates in %s', (language) => {
  it('writes a day with the month’s abbreviation, as Intl does, never as ISO', () => {
    const expected = new Intl.DateTimeFormat(language, {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(Date.UTC(2026, 10, 30)));
    expect(formatDay('2026-11-30', language)).toBe(expected);
    expect(formatDate('2026-11-30T00:00:00Z', language, 'UTC')).toBe(expected);
    expect(formatDay('2026-11-30', language)).not.toContain('2026-11-30');
  });

  it('writes a moment with its time, and in full, as Intl does in the reader’s zone', () => {
    expect(formatDateTime(INSTANT, language)).toBe(
      new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(INSTANT)),
    );
    expect(formatDateTime(INSTANT, language, 'fullDateTime')).toBe(
      new Intl.DateTimeFormat(language, { dateStyle: 'full', timeStyle: 'short' }).format(new Date(INSTANT)),
    );
  });
});

describe('dates', () => {
  it('are not written in the US order in other languages', () => {
    const english = formatDay('2026-11-30', 'en');
    for (const language of ['fr', 'et', 'lv']) expect(formatDay('2026-11-30', language)).not.toBe(english);
  });

  it('say so instead of “Invalid Date” for something that is not one', () => {
    expect(formatDay('someday', 'fr')).toBe('—');
    expect(formatDateTime('', 'et')).toBe('—');
  });
});
