import { callMetrics, type TimedSegment } from '../src/services/metrics';

const seg = (speaker: string, start: number, end: number, words: number): TimedSegment => ({
  speaker,
  start,
  end,
  text: Array.from({ length: words }, (_, i) => `w${i}`).join(' '),
});

describe('call metrics, exact values on a synthetic stereo call', () => {
  // Agent (left) 0.5–3.0 and 6.0–9.0; customer (right) 3.5–6.5, interrupting the agent's second
  // turn by 0.5 s, and 10.0–12.0; 13 s in all.
  const call = [
    seg('Agent', 0.5, 3, 5),
    seg('Customer', 3.5, 6.5, 5),
    seg('Agent', 6, 9, 6),
    seg('Customer', 10, 12, 4),
  ];
  const m = callMetrics(call, 13);

  test('talk time, share, words, pace, turns and the longest monologue per speaker', () => {
    expect(m.duration).toBe(13);
    expect(m.speakers).toEqual([
      {
        speakerId: 'Agent',
        talkTime: 5.5,
        share: 5.5 / 10.5,
        words: 11,
        wordsPerMinute: 120,
        turns: 2,
        longestMonologue: 3,
      },
      {
        speakerId: 'Customer',
        talkTime: 5,
        share: 5 / 10.5,
        words: 9,
        wordsPerMinute: 108,
        turns: 2,
        longestMonologue: 3,
      },
    ]);
    expect(m.speakers[0]!.share + m.speakers[1]!.share).toBeCloseTo(1, 12);
  });

  test('one overlap of 0.5 s; silence at the start, between turns and at the end', () => {
    expect(m.overlaps).toEqual({ count: 1, total: 0.5 });
    // 0–0.5, 3.0–3.5, 9.0–10.0 and 12.0–13.0.
    expect(m.silence).toEqual({ total: 3, longest: 1 });
  });
});

test('a speaker’s consecutive segments are one turn; touching intervals are no overlap; a segment past the duration extends it', () => {
  const m = callMetrics([seg('A', 0, 2, 2), seg('A', 3, 5, 2), seg('B', 5, 7, 3), seg('A', 7, 8, 1)], 6);
  expect(m.duration).toBe(8);
  expect(m.speakers.map((s) => [s.speakerId, s.talkTime, s.turns, s.longestMonologue])).toEqual([
    ['A', 5, 2, 5],
    ['B', 2, 1, 2],
  ]);
  expect(m.overlaps).toEqual({ count: 0, total: 0 });
  expect(m.silence).toEqual({ total: 1, longest: 1 });
});

test('three speakers at once count once; a recording with no speech is all silence', () => {
  const m = callMetrics([seg('A', 0, 4, 1), seg('B', 1, 3, 1), seg('C', 2, 5, 1)], 5);
  expect(m.overlaps).toEqual({ count: 1, total: 3 });
  expect(callMetrics([], 7)).toEqual({
    duration: 7,
    speakers: [],
    overlaps: { count: 0, total: 0 },
    silence: { total: 7, longest: 7 },
  });
});
