import { z } from 'zod';
import { Id } from '../common';

/** What a transcript downloads as: plain text, subtitles, Word, the API's JSON, segments as CSV. */
export const EXPORT_FORMATS = ['txt', 'srt', 'vtt', 'docx', 'json', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Subtitle cues (SRT, WebVTT): at most this many lines of at most this many characters (broadcast practice). */
export const SUBTITLE_LIMITS = { lineLength: 42, lines: 2 } as const;

/** At most this many transcripts in one ZIP. */
export const EXPORT_BULK_MAX = 100;

/** GET /transcripts/{fileId}/export?format= */
export const ExportQuery = z.object({ format: z.enum(EXPORT_FORMATS) }).strict();
export type ExportQuery = z.infer<typeof ExportQuery>;

/** POST /transcripts/export: one file per transcript, in a ZIP. */
export const BulkExportBody = z
  .object({
    fileIds: z.array(Id).min(1).max(EXPORT_BULK_MAX),
    format: z.enum(EXPORT_FORMATS),
  })
  .strict();
export type BulkExportBody = z.infer<typeof BulkExportBody>;

/** The 409 of a transcript that has nothing to export yet (pending, processing, failed). */
export const exportNotReadyMessage = (originalName: string, status: string): string =>
  `“${originalName}” cannot be exported yet: its transcription is ${status.replaceAll('_', ' ')}`;

/** What may stop an export's rendering: its time (EXPORT_TIMEOUT_MS) or its memory (EXPORT_MAX_HEAP_MB). */
export type ExportLimit = { kind: 'time'; seconds: number } | { kind: 'memory'; megabytes: number };

/** The 413 of an export stopped at a limit of its rendering, naming the limit and what to do instead. */
export const exportTooLargeMessage = (limit: ExportLimit): string =>
  `${
    limit.kind === 'time'
      ? `This export took longer than the ${limit.seconds} seconds an export may take to render`
      : `This export needed more than the ${limit.megabytes} MB of memory an export may use to render`
  }: export fewer transcripts at once, or ask an administrator to raise the limit`;
