// The file and transcription services' answers are the contracts' types; this file adds the
// screens' own constants.
import type { FileItemDto, TranscriptionStatus } from '@earshot/contracts';
import { TRANSCRIPT_MESSAGES } from '@earshot/contracts/constants';

export type {
  FileItemDto as FileItem,
  FileList,
  PeaksDto as Peaks,
  SpeakerInfo as Speaker,
  SpeakerSegment as Segment,
  TranscriptDto as Transcript,
  TranscriptWord as Word,
} from '@earshot/contracts';

/** A file's or a transcription's status (the two lists hold the same words). */
export type Status = FileItemDto['status'] | TranscriptionStatus;

/** The strings and constants the server and the browser agree on. */
export const WORD_UPDATED = TRANSCRIPT_MESSAGES.wordUpdated;
export const TOAST_MS = 3000;
export const SEEK_PLAY_DELAY_MS = 100;
export const HIGHLIGHT_TOLERANCE = 0.1;
export const WAVEFORM = {
  barWidth: 2,
  barRadius: 3,
  barGap: 2,
  height: 48,
  waveColor: '#94a3b8',
  progressColor: '#4f46e5',
} as const;
export const SEGMENT_TINT_OPACITY = 0.15;
export const PAGE_SIZE = 10;
export const POLL_MS = 3000;

export function isBusy(status: Status): boolean {
  return status === 'pending' || status === 'processing';
}
