import { speakerName } from '@earshot/contracts/constants';
import type { MessageRow } from '../src/db/schema';
import type { Passage } from '../src/repositories/segments';
import { builtInPieces } from '../src/services/built-in';
import { asksOverview, citedIn, excerptsOf, mentions, overviewOf } from '../src/services/context';
import { atxHeading, markdownBlocks } from '../src/services/knowledge/extract';
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
  expect(withinBudget([row('a very long question indeed')], 5)).toEqual([
    { role: 'user', content: 'a very long question indeed' },
  ]);
});

test('quoted transcript text cannot become links, emphasis or HTML', () => {
  const quoted = escapeMarkdown('click [here](javascript:alert(1)) <img src=x onerror=alert(1)> *now*');
  expect(quoted).not.toMatch(/(^|[^\\])\[|(^|[^\\])</);
  const pieces = builtInPieces({
    question: 'x',
    history: [],
    allCompanies: false,
    mode: 'search',
    recording: null,
    passages: [
      {
        fileId: 'f',
        fileName: '[evil](javascript:x)',
        speaker: '<b>A</b>',
        start: 1,
        text: 'hi',
        link: '/transcripts/f?t=1',
      },
    ],
  });
  expect(pieces.join('')).toContain(
    '**\\<b\\>A\\</b\\>** at [0:01](/transcripts/f?t=1) in *\\[evil\\]\\(javascript:x\\)*',
  );
});

test('a speaker is named one way: the transcript\'s label, else "Speaker N" from speaker_<N-1>, and a name stays a name', () => {
  const stereo = [
    { id: 'speaker_0', label: 'Agent' },
    { id: 'speaker_1', label: 'Customer' },
  ];
  expect(speakerName('speaker_1', stereo)).toBe('Customer');
  expect(speakerName('speaker_0')).toBe('Speaker 1');
  expect(speakerName('speaker_11', [])).toBe('Speaker 12');
  expect(speakerName('Speaker 1')).toBe('Speaker 1');
  expect(speakerName('Agent')).toBe('Agent');
});

test('a recording is named by whole words only, and summaries are recognised', () => {
  expect(mentions('Summarize the call.wav recording', 'call.wav')).toBe(true);
  expect(mentions('what did recall.wav say', 'call.wav')).toBe(false);
  expect(mentions('the Acme Oy call', 'acme oy')).toBe(true);
  expect(mentions('acmeoy', 'acme')).toBe(false);
  expect(asksOverview('Summarize this recording')).toBe(true);
  expect(asksOverview('What was the call about?')).toBe(true);
  expect(asksOverview('What price did we offer?')).toBe(false);
});

const seg = (start: number, text: string): Passage => ({
  fileId: 'f',
  fileName: 'f.wav',
  speaker: 'Agent',
  start,
  text,
  rank: 0,
});

test('the built-in overview is the opening and the longest passages, in order', () => {
  const segments = [
    seg(0, 'hi'),
    seg(5, 'a much longer passage here'),
    seg(9, 'ok'),
    seg(12, 'the longest passage of them all by far'),
    seg(20, 'medium one'),
    seg(30, 'x'),
  ];
  expect(overviewOf(segments).map((p) => p.start)).toEqual([0, 5, 12, 20]);
});

test('excerpts keep the relevant segments first, spread the rest over the recording, and stay within the budget', () => {
  const segments = Array.from({ length: 100 }, (_, i) => seg(i * 10, `segment number ${i} with some words in it`));
  const chosen = excerptsOf(segments, [segments[70]!], 200);
  expect(chosen.map((p) => p.start)).toContain(700);
  expect(chosen.length).toBeGreaterThan(5);
  expect(chosen.length).toBeLessThan(100);
  expect(chosen.map((p) => p.start)).toEqual([...chosen.map((p) => p.start)].sort((a, b) => a - b));
  // Spread: some from the first and some from the last quarter.
  expect(chosen.some((p) => p.start < 250)).toBe(true);
  expect(chosen.some((p) => p.start > 750)).toBe(true);
});

test('the sources of an answer given a whole transcript are the segments it cites, once each', () => {
  const passages = [1, 2, 3].map((n) => ({
    fileId: 'f',
    fileName: 'f.wav',
    speaker: 'Agent',
    start: n,
    text: `t${n}`,
    link: `/transcripts/f?t=${n}`,
  }));
  expect(citedIn('As said [3] and [1], again [3]; not [9].', passages).map((p) => p.start)).toEqual([3, 1]);
});

test("a knowledge file's Markdown headings are read as CommonMark writes them", () => {
  expect(atxHeading('# Pricing')).toBe('Pricing');
  expect(atxHeading('   ### Refunds ###  ')).toBe('Refunds');
  expect(atxHeading('## C# basics')).toBe('C# basics');
  expect(atxHeading('##\tTabbed')).toBe('Tabbed');
  expect(atxHeading('#hashtag')).toBeNull();
  expect(atxHeading('    # indented code')).toBeNull();
  expect(atxHeading('####### seven')).toBeNull();
  expect(markdownBlocks('# Intro\nHello\nthere\n\n## Next\nMore')).toEqual([
    { text: 'Intro', page: null, heading: 'Intro' },
    { text: 'Hello\nthere', page: null, heading: 'Intro' },
    { text: 'Next', page: null, heading: 'Next' },
    { text: 'More', page: null, heading: 'Next' },
  ]);
});

test('a line built to make a heading pattern backtrack is read in one pass', () => {
  // Spaces, #s and spaces again, ending in a sign: the former regex took seconds on 6,000
  // characters of it and grew with the cube of the length; this is 300,000.
  const n = 100_000;
  const hostile = `# ${' '.repeat(n)}${'#'.repeat(n)}${' '.repeat(n)}!`;
  expect(atxHeading(hostile) === `${'#'.repeat(n)}${' '.repeat(n)}!`).toBe(true);
  // Only the last run of #s closes a heading (CommonMark): the others are its text.
  expect(atxHeading(`# ${'# '.repeat(n)}`) === '# '.repeat(n - 1).trimEnd()).toBe(true);
});
