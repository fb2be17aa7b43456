// Ten speaker colours, given in order of first appearance and cycling after the tenth speaker.
// The same colour marks the speaker's circle in the list and their overlays on the waveform.
import type { Segment, Speaker } from './model';

export const SPEAKER_COLORS = [
  '#4f46e5', // indigo
  '#0891b2', // cyan
  '#16a34a', // green
  '#ea580c', // orange
  '#db2777', // pink
  '#9333ea', // purple
  '#ca8a04', // amber
  '#dc2626', // red
  '#0d9488', // teal
  '#65a30d', // lime
] as const;

export function assignSpeakerColors(segments: ReadonlyArray<Pick<Segment, 'speakerId'>>): Map<string, string> {
  const colors = new Map<string, string>();
  for (const segment of segments) {
    if (!colors.has(segment.speakerId))
      colors.set(segment.speakerId, SPEAKER_COLORS[colors.size % SPEAKER_COLORS.length]!);
  }
  return colors;
}

/** The transcript's own colours (each speaker's `color`), the order-of-appearance ones for any without. */
export function speakerColors(
  speakers: readonly Speaker[],
  segments: ReadonlyArray<Pick<Segment, 'speakerId'>>,
): Map<string, string> {
  const colors = assignSpeakerColors(segments);
  for (const speaker of speakers) if (speaker.color) colors.set(speaker.id, speaker.color);
  return colors;
}

/** The transcript's speakers, plus any a turn names that the list lacks (older transcripts). */
export function knownSpeakers(
  speakers: readonly Speaker[],
  segments: ReadonlyArray<Pick<Segment, 'speakerId'>>,
): Speaker[] {
  const ids = new Set(speakers.map((speaker) => speaker.id));
  const extra: Speaker[] = [];
  for (const { speakerId } of segments) {
    if (ids.has(speakerId)) continue;
    ids.add(speakerId);
    extra.push({ id: speakerId, label: '', channel: null, color: '' });
  }
  return extra.length ? [...speakers, ...extra] : [...speakers];
}

/** The circle's letter: the speaker id's first letter, uppercased ('speaker_0' → 'S'). */
export function speakerInitial(speakerId: string): string {
  const first = [...speakerId.trim()][0];
  return first ? first.toLocaleUpperCase() : '?';
}
