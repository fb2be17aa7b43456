// Shapes of the file and transcription services' answers that this feature reads (see
// services/file and services/transcription READMEs; the web app does not import the server contracts).

export const STATUSES = ['pending', 'processing', 'completed', 'failed', 'not_started'] as const;
export type Status = (typeof STATUSES)[number];

export interface FileItem {
  _id: string;
  originalName: string;
  size: number;
  mimeType: string;
  uploadDate: string;
  status: Status;
  transcriptionStatus: Status;
  transcriptionError: string | null;
  clientId: string | null;
  url: string;
  path: string;
}

export interface FileList {
  items: FileItem[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

export interface Word {
  _id: string;
  text: string;
  start: number;
  end: number;
}

export interface Segment {
  _id: string;
  speakerId: string;
  start: number;
  /** Missing means: to the end of the audio (spec part 3). */
  end?: number;
  text: string;
  words: Word[];
}

export interface Transcript {
  _id: string;
  fileId: string;
  audioPath: string;
  status: Status;
  reason: string | null;
  clientId: string | null;
  file: { url: string; path: string; filename: string; originalName: string; uploadDate: string };
  metadata: {
    duration: number | null;
    peaksUrl: string | null;
    speakers?: Array<{ id: string; label: string; channel: number | null }>;
    speakerSegments: Segment[];
  };
}

export interface Peaks {
  version: 1;
  duration: number;
  pointsPerSecond: number;
  length: number;
  /** min0, max0, min1, max1, ... normalised to -1..1 */
  data: number[];
}

/** Spec part 8 / 9: the contract strings and constants. */
export const WORD_UPDATED = 'Word updated successfully';
export const TOAST_MS = 3000;
export const SEEK_PLAY_DELAY_MS = 100;
export const HIGHLIGHT_TOLERANCE = 0.1;
export const WAVEFORM = { barWidth: 2, barRadius: 3, barGap: 2, height: 48, waveColor: '#94a3b8', progressColor: '#4f46e5' } as const;
export const SEGMENT_TINT_OPACITY = 0.15;
export const PAGE_SIZE = 10;
export const POLL_MS = 3000;

export function isBusy(status: Status): boolean {
  return status === 'pending' || status === 'processing';
}
