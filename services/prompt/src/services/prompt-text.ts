/** What a prompt's variables stand for, besides the transcript itself. */
export interface RecordingFacts {
  fileName: string;
  speakers: string[];
  clientName: string | null;
  recordedAt: Date | null;
  duration: number;
  language: string | null;
}

export interface Line {
  speaker: string;
  start: number;
  text: string;
}

/** Seconds as m:ss, or h:mm:ss from an hour on. */
export function clock(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** A segment as the model reads it: `[m:ss] Speaker: text`. */
export const lineText = (line: Line) =>
  `[${clock(line.start)}] ${line.speaker}: ${line.text.replace(/\s+/g, ' ').trim()}`;

/**
 * The transcript cut into parts of at most `budget` characters, at segment boundaries (a single
 * segment longer than the budget is a part of its own).
 */
export function splitLines(lines: readonly Line[], budget: number): string[] {
  const parts: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const line of lines.map(lineText)) {
    if (current.length > 0 && size + line.length + 1 > budget) {
      parts.push(current.join('\n'));
      current = [];
      size = 0;
    }
    current.push(line);
    size += line.length + 1;
  }
  if (current.length > 0 || parts.length === 0) parts.push(current.join('\n'));
  return parts;
}

const VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;

/**
 * The prompt text with its variables filled in. A prompt that does not place `{{transcript}}`
 * gets the transcript after its text.
 */
export function fillPrompt(text: string, transcript: string, facts: RecordingFacts): string {
  const values: Record<string, string> = {
    transcript,
    speakers: facts.speakers.join(', ') || 'unknown',
    'client.name': facts.clientName ?? 'no client',
    'recording.date': facts.recordedAt ? facts.recordedAt.toISOString().slice(0, 10) : 'unknown',
    'recording.duration': clock(facts.duration),
    language: facts.language ?? 'unknown',
  };
  let placed = false;
  const filled = text.replace(VARIABLE, (whole, name: string) => {
    if (name === 'transcript') placed = true;
    return values[name] ?? whole;
  });
  return placed ? filled : `${filled}\n\nTranscript of "${facts.fileName}":\n${transcript}`;
}
