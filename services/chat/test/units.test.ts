import type { MessageRow } from '../src/db/schema';
import { builtInPieces } from '../src/services/built-in';
import { clock, escapeMarkdown, transcriptLink } from '../src/services/passages';
import { titleFrom, withinBudget } from '../src/services/replies';

test('times read as m:ss, or h:mm:ss from an hour', () => {
  expect(clock(0)).toBe('0:00');
  expect(clock(75.9)).toBe('1:15');
  expect(clock(3725)).toBe('1:02:05');
  expect(transcriptLink('f', 95.8)).toBe('/transcripts/f?t=95');
});

test('titles are the first words of the first message, about 60 characters', () => {
  expect(titleFrom('  Short\nquestion ')).toBe('Short question');
  const long = titleFrom('Please summarise every call from last week about the delayed refrigerated deliveries');
  expect(long).toBe('Please summarise every call from last week about the…');
  expect(titleFrom('x'.repeat(100))).toBe(`${'x'.repeat(60)}…`);
});

test('the history keeps the newest messages that fit, and always the question', () => {
  const row = (content: string, role: 'user' | 'assistant' = 'user') => ({ content, role }) as MessageRow;
  const newestFirst = [row('q3'), row('a2'.repeat(10), 'assistant'), row('q2'), row('a1', 'assistant')];
  expect(withinBudget(newestFirst, 1000).map((m) => m.content)).toEqual(['a1', 'q2', 'a2'.repeat(10), 'q3']);
  expect(withinBudget(newestFirst, 10).map((m) => m.content)).toEqual(['q3']);
  expect(withinBudget([row('a very long question indeed')], 5)).toEqual([{ role: 'user', content: 'a very long question indeed' }]);
});

test('quoted transcript text cannot become links, emphasis or HTML', () => {
  const quoted = escapeMarkdown('click [here](javascript:alert(1)) <img src=x onerror=alert(1)> *now*');
  expect(quoted).not.toMatch(/(^|[^\\])\[|(^|[^\\])</);
  const pieces = builtInPieces({
    question: 'x', history: [], allCompanies: false,
    passages: [{ fileId: 'f', fileName: '[evil](javascript:x)', speaker: '<b>A</b>', start: 1, text: 'hi', link: '/transcripts/f?t=1' }],
  });
  expect(pieces.join('')).toContain('**\\<b\\>A\\</b\\>** at [0:01](/transcripts/f?t=1) in *\\[evil\\]\\(javascript:x\\)*');
});
