// Ten speaker colours, given in order of first appearance and cycling after the tenth speaker.
// The same colour marks the speaker's circle in the list and their overlays on the waveform.
import type { Segment } from './model';

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
    if (!colors.has(segment.speakerId)) colors.set(segment.speakerId, SPEAKER_COLORS[colors.size % SPEAKER_COLORS.length]!);
  }
  return colors;
}

/** The circle's letter: the speaker id's first letter, uppercased ('speaker_0' → 'S'). */
export function speakerInitial(speakerId: string): string {
  const first = [...speakerId.trim()][0];
  return first ? first.toLocaleUpperCase() : '?';
}
