import { describe, expect, it } from '@jest/globals';
import type { Segment } from './model';
import { findMatches, findPattern, stepMatch } from './find-matches';

const segmentOf = (id: string, text: string) =>
  ({
    _id: id,
    text,
    words: text.split(' ').map((word, i) => ({ _id: `${id}-${i}`, text: word, start: i, end: i + 0.5 })),
  }) as Segment;
const segments = [
  segmentOf('s1', 'The invoice, the Invoice and invoices.'),
  segmentOf('s2', 'No match here'),
  segmentOf('s3', 'invoice? (a+b) costs 5$'),
];

describe('find over the loaded segments', () => {
  it('ignores case unless asked, numbering matches inside each segment', () => {
    expect(findMatches(segments, { find: 'invoice', matchCase: false, wholeWord: false })).toEqual([
      { segmentId: 's1', occurrence: 0 },
      { segmentId: 's1', occurrence: 1 },
      { segmentId: 's1', occurrence: 2 },
      { segmentId: 's3', occurrence: 0 },
    ]);
    expect(findMatches(segments, { find: 'Invoice', matchCase: true, wholeWord: false })).toEqual([
      { segmentId: 's1', occurrence: 0 },
    ]);
  });

  it('counts whole words only when asked (invoices is not invoice)', () => {
    expect(findMatches(segments, { find: 'invoice', matchCase: false, wholeWord: true })).toHaveLength(3);
  });

  it('takes the text literally (no regular expression)', () => {
    expect(findMatches(segments, { find: '(a+b)', matchCase: false, wholeWord: false })).toEqual([
      { segmentId: 's3', occurrence: 0 },
    ]);
    expect(findMatches(segments, { find: '5$', matchCase: false, wholeWord: false })).toHaveLength(1);
    expect(findMatches(segments, { find: '.', matchCase: false, wholeWord: false })).toHaveLength(1);
  });

  it('treats letters beyond ASCII as word characters', () => {
    const estonian = [segmentOf('e', 'tänan, tänane päev')];
    expect(findMatches(estonian, { find: 'tänan', matchCase: false, wholeWord: true })).toHaveLength(1);
    expect(findMatches(estonian, { find: 'TÄNAN', matchCase: false, wholeWord: false })).toHaveLength(2);
  });

  it('matches the words as the server joins them (trimmed, one space), not a stale text', () => {
    const stale = {
      ...segmentOf('x', 'old text'),
      words: [
        { _id: 'a', text: ' new ', start: 0, end: 1 },
        { _id: 'b', text: 'words', start: 1, end: 2 },
      ],
    };
    expect(findMatches([stale], { find: 'new words', matchCase: false, wholeWord: true })).toHaveLength(1);
    expect(findMatches([stale], { find: 'old', matchCase: false, wholeWord: false })).toHaveLength(0);
  });

  it('finds nothing for an empty search', () => {
    expect(findPattern({ find: '', matchCase: false, wholeWord: false })).toBeNull();
    expect(findMatches(segments, { find: '', matchCase: false, wholeWord: false })).toEqual([]);
  });

  it('steps through the matches with wrap-around', () => {
    expect(stepMatch(-1, 3, 1)).toBe(0);
    expect(stepMatch(-1, 3, -1)).toBe(2);
    expect(stepMatch(2, 3, 1)).toBe(0);
    expect(stepMatch(0, 3, -1)).toBe(2);
    expect(stepMatch(0, 0, 1)).toBe(-1);
  });
});
