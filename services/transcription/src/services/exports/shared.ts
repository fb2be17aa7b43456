import { speakerName, type TranscriptDto } from '@earshot/contracts';

// Control characters (bar tab and line breaks, folded as whitespace) make XML invalid and break subtitle files.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Text as one line: no control characters, whitespace runs as one space. */
export const clean = (text: string): string => text.replace(CONTROL, '').replace(/\s+/g, ' ').trim();

/** Characters as a reader counts them: code points (an emoji is one, not its two UTF-16 halves). */
export function width(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xdc00 && unit <= 0xdfff) n--;
  }
  return n;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A time stamp for people: m:ss, or h:mm:ss from the first hour on. */
export function clock(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** The recording's date as `YYYY-MM-DD HH:MM UTC` (a document leaves the viewer's time zone behind). */
export const dateLine = (t: TranscriptDto): string =>
  `${t.file.uploadDate.slice(0, 10)} ${t.file.uploadDate.slice(11, 16)} UTC`;

/** The original name without its extension, as the exported files are named ("call.mp3" → "call"). */
export function baseName(originalName: string): string {
  const name = clean(originalName);
  const base = name.replace(/\.[^.\s]{1,16}$/, '');
  return base || name || 'transcript';
}

export interface Entry {
  segmentId: string;
  speakerId: string;
  /** The speaker's name now (a rename shows at once: speakers[].label). */
  speaker: string;
  start: number;
  end: number | null;
  text: string;
}

/** The transcript's segments in order, each with its speaker's name and its text on one line. */
export function entries(t: TranscriptDto): Entry[] {
  const { speakers, speakerSegments } = t.metadata;
  return speakerSegments
    .map((s) => ({
      segmentId: s._id,
      speakerId: s.speakerId,
      speaker: clean(speakerName(s.speakerId, speakers)),
      start: s.start,
      end: s.end ?? null,
      text: clean(s.text),
    }))
    .filter((e) => e.text);
}

/** The names of the people who speak, in the transcript's speaker order, then any others as they first speak. */
export function speakerNames(t: TranscriptDto): string[] {
  const speaking = new Set(t.metadata.speakerSegments.map((s) => s.speakerId));
  const ids = [...t.metadata.speakers.map((s) => s.id).filter((id) => speaking.has(id)), ...speaking];
  return [...new Set(ids)].map((id) => clean(speakerName(id, t.metadata.speakers)));
}
