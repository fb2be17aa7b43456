import type { RecognisedWord } from '../engines/types';

/** Who speaks when: a diarizer's turn, or a provider's speaker-labelled segment or word. */
export interface SpeakerSpan<S> {
  start: number;
  end: number;
  speaker: S;
}

const overlap = (word: RecognisedWord, span: SpeakerSpan<unknown>) =>
  Math.min(word.end, span.end) - Math.max(word.start, span.start);
const distance = (word: RecognisedWord, span: SpeakerSpan<unknown>) =>
  Math.max(0, span.start - word.end, word.start - span.end);

/**
 * The speaker of each word, by time: the span that overlaps most of it; a word in no span goes
 * to the nearest one. Every word gets exactly one speaker (null only when there are no spans).
 */
export function speakerOfEach<S>(words: readonly RecognisedWord[], spans: readonly SpeakerSpan<S>[]): (S | null)[] {
  return words.map((word) => {
    let best: SpeakerSpan<S> | null = null;
    let bestOverlap = 0;
    for (const span of spans) {
      const shared = overlap(word, span);
      if (shared > bestOverlap) [best, bestOverlap] = [span, shared];
    }
    if (!best) {
      let nearest = Infinity;
      for (const span of spans) {
        const gap = distance(word, span);
        if (gap < nearest) [best, nearest] = [span, gap];
      }
    }
    return best ? best.speaker : null;
  });
}

/**
 * Words grouped by their speaker (`speakers[i]` is word i's), speakers in the order they first
 * speak (the first voice heard is the first group); a speaker with no word has no group.
 */
export function wordsBySpeaker<S>(
  words: readonly RecognisedWord[],
  speakers: readonly (S | null)[],
): { speaker: S; words: RecognisedWord[] }[] {
  const order = words.map((_, i) => i).sort((a, b) => words[a]!.start - words[b]!.start);
  const groups = new Map<S, RecognisedWord[]>();
  for (const i of order) {
    const speaker = speakers[i];
    if (speaker === null || speaker === undefined) continue;
    if (!groups.has(speaker)) groups.set(speaker, []);
    groups.get(speaker)!.push(words[i]!);
  }
  return [...groups].map(([speaker, grouped]) => ({ speaker, words: grouped }));
}
