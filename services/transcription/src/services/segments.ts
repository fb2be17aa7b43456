import { speakerColor, type SpeakerInfo, type SpeakerSegment } from '@earshot/contracts';
import type { RecognisedWord } from '../engines/types';

/** A pause longer than this starts a new segment of the same speaker. */
export const PAUSE_SECONDS = 0.8;
/** Segments stay readable: a monologue is cut after this long even without a pause. */
export const MAX_SEGMENT_SECONDS = 30;

export const CALL_LABELS = ['Agent', 'Customer'] as const;

export interface ChannelWords {
  speakerId: string;
  words: RecognisedWord[];
}

const ms = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** Orders one speaker's words and makes their times ascending, non-overlapping and inside the audio. */
export function tidyWords(words: readonly RecognisedWord[], duration: number): RecognisedWord[] {
  const sorted = [...words].sort((a, b) => a.start - b.start || a.end - b.end);
  const tidy: RecognisedWord[] = [];
  let previousEnd = 0;
  for (const word of sorted) {
    const start = ms(Math.min(Math.max(word.start, previousEnd, 0), duration));
    const end = ms(Math.min(Math.max(word.end, start), duration));
    tidy.push({
      text: word.text,
      start,
      end,
      ...(word.confidence === undefined ? {} : { confidence: word.confidence }),
    });
    previousEnd = end;
  }
  return tidy;
}

/** Groups words in time order into segments at pauses (and where `sameTurn` says the speaker changed). */
function groupAtPauses<W extends RecognisedWord>(
  words: readonly W[],
  sameTurn: (a: W, b: W) => boolean = () => true,
): W[][] {
  const groups: W[][] = [];
  let current: W[] = [];
  for (const word of words) {
    const last = current[current.length - 1];
    if (
      last &&
      (!sameTurn(last, word) ||
        word.start - last.end > PAUSE_SECONDS ||
        word.end - current[0]!.start > MAX_SEGMENT_SECONDS)
    ) {
      groups.push(current);
      current = [];
    }
    current.push(word);
  }
  if (current.length) groups.push(current);
  return groups;
}

/** All speakers' words in one stream, in time order, each with its speaker. */
function interleaved(channels: readonly ChannelWords[]): (RecognisedWord & { speakerId: string })[] {
  return channels
    .flatMap((c) => c.words.map((w) => ({ ...w, speakerId: c.speakerId })))
    .sort((a, b) => a.start - b.start || a.end - b.end);
}

/**
 * Speaker segments for the viewer: each speaker's words split at pauses, all speakers' segments
 * interleaved by start time, and a string `_id` on every segment and word. `run` is unique to
 * this transcription run, so a word id from an older run never names a word of a newer one.
 * `cutAtChanges` (speakers of one channel, by diarization): a segment also ends where another
 * speaker's word comes next, so a turn never spans the other voice. Channels of a call overlap
 * freely (a "mm-hm" on one side does not cut the other side's sentence).
 */
export function buildSegments(
  channels: readonly ChannelWords[],
  duration: number,
  run: string,
  cutAtChanges = false,
): SpeakerSegment[] {
  const tidy = channels.map((channel) => ({ speakerId: channel.speakerId, words: tidyWords(channel.words, duration) }));
  const groups = cutAtChanges
    ? groupAtPauses(interleaved(tidy), (a, b) => a.speakerId === b.speakerId).map((words) => ({
        speakerId: words[0]!.speakerId,
        words: words.map(({ speakerId: _speaker, ...word }) => word),
      }))
    : tidy.flatMap((channel) => groupAtPauses(channel.words).map((words) => ({ speakerId: channel.speakerId, words })));
  groups.sort((a, b) => a.words[0]!.start - b.words[0]!.start || a.speakerId.localeCompare(b.speakerId));
  let wordCount = 0;
  return groups.map((group, index) => {
    const words = group.words.map((w) => ({ _id: `w-${run}-${wordCount++}`, ...w }));
    return {
      _id: `s-${run}-${index}`,
      speakerId: group.speakerId,
      start: words[0]!.start,
      end: words[words.length - 1]!.end,
      text: segmentText(words),
      words,
    };
  });
}

export function segmentText(words: readonly { text: string }[]): string {
  return words
    .map((w) => w.text.trim())
    .filter(Boolean)
    .join(' ');
}

/**
 * The speakers of one channel told apart by diarization or by the provider, in the order they
 * first speak: `speaker_0..n`, named by the provider's label when it gave one, else "Speaker N".
 */
export function diarizedSpeakers(labels: readonly (string | null)[]): SpeakerInfo[] {
  return labels.map((label, index) => ({
    id: `speaker_${index}`,
    label: label ?? `Speaker ${index + 1}`,
    channel: null,
    color: speakerColor(index),
  }));
}

export function speakersFor(channelCount: number): SpeakerInfo[] {
  if (channelCount === 2)
    return CALL_LABELS.map((label, channel) => ({
      id: `speaker_${channel}`,
      label,
      channel,
      color: speakerColor(channel),
    }));
  return [{ id: 'speaker_0', label: 'Speaker 1', channel: null, color: speakerColor(0) }];
}
