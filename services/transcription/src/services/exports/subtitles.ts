import { SUBTITLE_LIMITS, speakerName, type SpeakerSegment, type TranscriptDto } from '@earshot/contracts';
import { clean, width } from './shared';

const { lineLength: LINE, lines: LINES } = SUBTITLE_LIMITS;
/** A silence this long (seconds) inside a segment (say, after a merge) ends the cue: no text stays up through it. */
const MAX_GAP = 2;
/** SRT's `Name:` prefix shortens longer names, so the prefix and a word always fit one cue. */
const LABEL_NAME = 30;

interface Piece {
  text: string;
  width: number;
  start: number;
  end: number;
}

export interface Cue {
  speakerId: string;
  name: string;
  start: number;
  end: number;
  /** Lines as laid out; when `label` is set, the first starts with it (room kept for SRT's prefix). */
  lines: string[];
  label: string | null;
}

/**
 * A word as pieces that fit a line: itself, or, for a "word" longer than a line (a URL, say), cuts of
 * a line each sharing its time in proportion — the one case where a cue ends inside a word.
 */
function pieces(word: { text: string; start: number; end: number }): Piece[] {
  const text = clean(word.text);
  if (!text) return [];
  const length = width(text);
  if (length <= LINE) return [{ text, width: length, start: word.start, end: word.end }];
  const chars = [...text];
  const span = Math.max(0, word.end - word.start);
  const out: Piece[] = [];
  for (let at = 0; at < chars.length; at += LINE) {
    const part = chars.slice(at, at + LINE);
    out.push({
      text: part.join(''),
      width: part.length,
      start: word.start + (span * at) / chars.length,
      end: word.start + (span * (at + part.length)) / chars.length,
    });
  }
  return out;
}

function labelOf(name: string): string {
  const chars = [...name];
  return `${chars.length > LABEL_NAME ? `${chars.slice(0, LABEL_NAME - 1).join('')}…` : name}:`;
}

/**
 * One segment's cues: words filled into lines of ≤ LINE characters, ≤ LINES lines a cue, never a word
 * cut. `labelled`: every cue starts with SRT's `Name:` prefix.
 */
function segmentCues(segment: SpeakerSegment, name: string, labelled: boolean): Cue[] {
  const cues: Cue[] = [];
  let label: string | null = null;
  let lines: string[] = [];
  let line = '';
  let lineWidth = 0;
  let inCue: Piece[] = [];
  const open = () => {
    label = labelled ? labelOf(name) : null;
    lines = [];
    line = label ?? '';
    lineWidth = label ? width(label) : 0;
    inCue = [];
  };
  const close = () => {
    const first = inCue[0];
    const last = inCue[inCue.length - 1];
    if (first && last)
      cues.push({
        speakerId: segment.speakerId,
        name,
        start: first.start,
        end: last.end,
        lines: [...lines, line],
        label,
      });
    open();
  };
  const place = (piece: Piece): boolean => {
    const joined = line ? lineWidth + 1 + piece.width : piece.width;
    if (joined <= LINE) {
      line = line ? `${line} ${piece.text}` : piece.text;
      lineWidth = joined;
      return true;
    }
    if (line && lines.length + 1 < LINES) {
      lines.push(line);
      line = piece.text;
      lineWidth = piece.width;
      return true;
    }
    return false;
  };
  open();
  for (const piece of segment.words.flatMap(pieces)) {
    const previous = inCue[inCue.length - 1];
    if (previous && piece.start - previous.end > MAX_GAP) close();
    // A piece fits an empty cue: it is at most a line, and the label at most a line of its own.
    if (!place(piece)) {
      close();
      place(piece);
    }
    inCue.push(piece);
  }
  close();
  return cues;
}

/**
 * The transcript as subtitle cues in time order: a cue holds one speaker's words (never two
 * speakers, never a cut word), at most LINES lines of at most LINE characters, and runs from its
 * first word's start to its last word's end. `labels`: each cue starts with SRT's `Name:` prefix.
 */
export function buildCues(t: TranscriptDto, labels: boolean): Cue[] {
  const cues = t.metadata.speakerSegments.flatMap((segment) =>
    segmentCues(segment, clean(speakerName(segment.speakerId, t.metadata.speakers)), labels),
  );
  // Stable: cues of one segment keep their order; cross-talk interleaves by start.
  return cues.sort((a, b) => a.start - b.start);
}

/** `HH:MM:SS<sep>mmm`; an end is at least a millisecond after its start (players drop empty cues). */
function stamp(seconds: number, separator: ',' | '.'): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const hh = String(Math.floor(ms / 3_600_000)).padStart(2, '0');
  const mm = String(Math.floor(ms / 60_000) % 60).padStart(2, '0');
  const ss = String(Math.floor(ms / 1000) % 60).padStart(2, '0');
  return `${hh}:${mm}:${ss}${separator}${String(ms % 1000).padStart(3, '0')}`;
}

const timing = (cue: Cue, separator: ',' | '.') =>
  `${stamp(cue.start, separator)} --> ${stamp(Math.max(cue.end, cue.start + 0.001), separator)}`;

/**
 * SubRip: numbered cues, each starting with its speaker's `Name:`. SRT has no voice tag, so a cue
 * that continues a turn names the speaker again: a player that shows one cue at a time, or a cue
 * cut out of its context, still says who is talking.
 */
export function toSrt(t: TranscriptDto): string {
  const blocks = buildCues(t, true).map((cue, i) => {
    // SRT has no escaping: a text line that reads like a timing line would end the cue for a parser.
    const lines = cue.lines.map((l) => l.replaceAll('-->', '->'));
    return `${i + 1}\n${timing(cue, ',')}\n${lines.join('\n')}\n`;
  });
  return blocks.join('\n');
}

const escapeVtt = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** WebVTT: each cue's text is one `<v Name>` voice span (players can show or style the speaker). */
export function toVtt(t: TranscriptDto): string {
  const blocks = buildCues(t, false).map(
    (cue, i) => `${i + 1}\n${timing(cue, '.')}\n<v ${escapeVtt(cue.name)}>${cue.lines.map(escapeVtt).join('\n')}</v>\n`,
  );
  return ['WEBVTT\n', ...blocks].join('\n');
}
