import { speakerName, type TranscriptCitationDto } from '@earshot/contracts';
import type { Passage } from '../repositories/segments';

/** 75.4 → "1:15"; an hour or more → "1:02:05". */
export function clock(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The in-app link that opens a transcript at the moment a passage starts. */
export const transcriptLink = (fileId: string, start: number) =>
  `/transcripts/${fileId}?t=${Math.max(0, Math.floor(start))}`;

export function toCitation(p: Passage): TranscriptCitationDto {
  return {
    fileId: p.fileId,
    fileName: p.fileName,
    speaker: speakerName(p.speaker),
    start: p.start,
    text: p.text,
    link: transcriptLink(p.fileId, p.start),
  };
}

/** Text quoted into markdown stays text: no emphasis, links, headings or HTML from transcripts. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\\`*_{}[\]()<>#|!~]/g, (c) => `\\${c}`)
    .replace(/\s+/g, ' ')
    .trim();
}
