import { describe, expect, it } from '@jest/globals';
import { activeFilterCount, filtersFromParams, paramsWithFilters } from './library-filters';

const CLIENT = 'b0000000-0000-4000-8000-000000000001';

describe('library filters in the URL', () => {
  it('reads every filter back from the query it wrote, and keeps the other keys', () => {
    const filters = {
      tag: 'urgent',
      clientId: CLIENT,
      from: '2026-01-01',
      to: '2026-01-31',
      speaker: 'Ann Lee',
      status: 'completed',
      language: 'et',
    } as const;
    const params = paramsWithFilters(new URLSearchParams('q=invoice&sort=best'), filters);
    expect(params.toString()).toBe(
      'q=invoice&sort=best&tag=urgent&clientId=b0000000-0000-4000-8000-000000000001&from=2026-01-01&to=2026-01-31&speaker=Ann+Lee&status=completed&language=et',
    );
    expect(filtersFromParams(params)).toEqual(filters);
    expect(activeFilterCount(filters)).toBe(7);
  });

  it('an emptied filter leaves the URL', () => {
    const params = paramsWithFilters(new URLSearchParams('tag=urgent&speaker=Ann&page=2'), {
      tag: 'urgent',
      speaker: '  ',
    });
    expect(params.toString()).toBe('tag=urgent&page=2');
  });

  it('drops what the filter form could not have written, so a hand-edited link is never a 400', () => {
    const params = new URLSearchParams({
      tag: ' Urgent ',
      clientId: 'not-an-id',
      from: '2026-13-45',
      to: '01/02/2026',
      status: 'done',
      language: 'de',
      speaker: 'x'.repeat(81),
      companyId: "1' OR 1=1",
    });
    expect(filtersFromParams(params)).toEqual({ tag: 'urgent' });
    expect(filtersFromParams(new URLSearchParams({ tag: 'a\u0000b', speaker: 'Ann\nLee' }))).toEqual({});
  });
});
