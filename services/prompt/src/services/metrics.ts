import type { CallMetricsDto, SpeakerMetricsDto } from '@earshot/contracts';

/** What call analytics need of a segment: who spoke, when (seconds) and what. */
export interface TimedSegment {
  speaker: string;
  start: number;
  end: number;
  text: string;
}

type Interval = [start: number, end: number];

const ms = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** Intervals merged where they touch or overlap (input sorted by start). */
function union(sorted: readonly Interval[]): Interval[] {
  const merged: Interval[] = [];
  for (const [start, end] of sorted) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

const length = (intervals: readonly Interval[]) => intervals.reduce((n, [a, b]) => n + (b - a), 0);
const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/**
 * Sweeps every speaker's talk intervals at once: time where two or more speak (overlaps: how many
 * separate stretches, how long in all) and time where nobody does between 0 and `duration`.
 */
function sweep(bySpeaker: readonly Interval[][], duration: number) {
  const edges: [time: number, delta: number][] = [];
  for (const intervals of bySpeaker) for (const [a, b] of intervals) edges.push([a, 1], [b, -1]);
  // At one instant, ends before starts: touching intervals are not an overlap.
  edges.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let active = 0;
  let at = 0;
  const overlaps = { count: 0, total: 0 };
  const silence = { total: 0, longest: 0 };
  const quiet = (from: number, to: number) => {
    const gap = Math.min(to, duration) - Math.max(from, 0);
    if (gap <= 0) return;
    silence.total += gap;
    silence.longest = Math.max(silence.longest, gap);
  };
  for (const [time, delta] of edges) {
    if (active === 0) quiet(at, time);
    if (active >= 2) overlaps.total += time - at;
    const before = active;
    active += delta;
    if (before < 2 && active >= 2) overlaps.count++;
    at = time;
  }
  quiet(at, duration);
  return { overlaps, silence };
}

/**
 * Call analytics from speakers' segments (each segment is one speaker's words between pauses of at
 * most 0.8 s, so its interval is their speech). The formulas are in the service README.
 */
export function callMetrics(segments: readonly TimedSegment[], recordingDuration: number): CallMetricsDto {
  const ordered = segments.filter((s) => s.end >= s.start).sort((a, b) => a.start - b.start || a.end - b.end);
  const duration = Math.max(
    recordingDuration,
    ordered.reduce((n, s) => Math.max(n, s.end), 0),
  );
  const speakers = [...new Set(ordered.map((s) => s.speaker))];
  const stats = new Map(
    speakers.map((id) => [id, { intervals: [] as Interval[], words: 0, turns: 0, longestMonologue: 0 }]),
  );

  // A turn: one speaker's consecutive segments (in start order) until another speaker's segment.
  const turns: { speaker: string; start: number; end: number }[] = [];
  for (const segment of ordered) {
    const s = stats.get(segment.speaker)!;
    s.intervals.push([segment.start, segment.end]);
    s.words += wordCount(segment.text);
    const last = turns[turns.length - 1];
    if (last?.speaker === segment.speaker) {
      last.end = Math.max(last.end, segment.end);
    } else {
      turns.push({ speaker: segment.speaker, start: segment.start, end: segment.end });
      s.turns++;
    }
  }
  for (const turn of turns) {
    const s = stats.get(turn.speaker)!;
    s.longestMonologue = Math.max(s.longestMonologue, turn.end - turn.start);
  }

  const merged = speakers.map((id) => union(stats.get(id)!.intervals));
  const talk = merged.map(length);
  const allTalk = talk.reduce((n, t) => n + t, 0);
  const { overlaps, silence } = sweep(merged, duration);

  const perSpeaker: SpeakerMetricsDto[] = speakers.map((speakerId, i) => {
    const s = stats.get(speakerId)!;
    const talkTime = talk[i]!;
    return {
      speakerId,
      talkTime: ms(talkTime),
      share: allTalk > 0 ? talkTime / allTalk : 0,
      words: s.words,
      wordsPerMinute: talkTime > 0 ? Math.round((s.words / (talkTime / 60)) * 10) / 10 : 0,
      turns: s.turns,
      longestMonologue: ms(s.longestMonologue),
    };
  });
  return {
    duration: ms(duration),
    speakers: perSpeaker,
    overlaps: { count: overlaps.count, total: ms(overlaps.total) },
    silence: { total: ms(silence.total), longest: ms(silence.longest) },
  };
}
