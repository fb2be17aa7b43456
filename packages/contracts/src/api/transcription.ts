import { z } from 'zod';
import { Id, MessageBody } from '../common';
import { TRANSCRIPTION_STATUSES } from '../constants';
import { RedactedCount } from './redacted';

/** `confidence` (0–1) only when the engine gives one (PocketSphinx and Whisper do; an OpenAI-compatible provider when it sends a word probability). */
export const TranscriptWord = z.object({
  _id: z.string(),
  text: z.string(),
  start: z.number(),
  end: z.number(),
  confidence: z.number().min(0).max(1).optional(),
});
export type TranscriptWord = z.infer<typeof TranscriptWord>;

/** `end` may be missing (to the end of the audio) in the public format; ours always has it. */
export const SpeakerSegment = z.object({
  _id: z.string(),
  speakerId: z.string(),
  start: z.number(),
  end: z.number().optional(),
  text: z.string(),
  words: z.array(TranscriptWord),
});
export type SpeakerSegment = z.infer<typeof SpeakerSegment>;

/**
 * Who speaks: `speaker_0` / `speaker_1` for the channels of a stereo call, labelled Agent / Customer.
 * `label` is the speaker's name (a rename sets it); `color` is `#rrggbb` from a fixed palette, by order.
 */
export const SpeakerInfo = z.object({
  id: z.string(),
  label: z.string(),
  channel: z.number().int().nullable(),
  color: z.string(),
});
export type SpeakerInfo = z.infer<typeof SpeakerInfo>;

/**
 * Waveform peaks for drawing without decoding audio in the browser: `data` holds normalised
 * (-1..1) min/max pairs, `pointsPerSecond` of them per second of audio (length = data.length / 2).
 */
export const PeaksDto = z.object({
  version: z.literal(1),
  duration: z.number(),
  pointsPerSecond: z.number(),
  length: z.number().int(),
  data: z.array(z.number()),
});
export type PeaksDto = z.infer<typeof PeaksDto>;

export const TranscriptFileDto = z.object({
  url: z.string(),
  path: z.string(),
  filename: z.string(),
  originalName: z.string(),
  uploadDate: z.string(),
});

/**
 * GET /transcripts/file/{fileId}. While the job is not completed, `status` says where it is and
 * `speakerSegments` is empty (the viewer shows 'processing'); `reason` explains a failure.
 */
export const TranscriptDto = z.object({
  _id: z.string(),
  fileId: z.string(),
  companyId: z.string(),
  audioPath: z.string(),
  status: z.enum(TRANSCRIPTION_STATUSES),
  reason: z.string().nullable(),
  clientId: z.string().nullable(),
  engine: z.string().nullable(),
  /** The language recognised (asked for, or detected for "auto"); before that, the one named at upload; null when unknown. */
  language: z.string().nullable(),
  /** The model's name: the Whisper model's or AI Configuration's speech-to-text model's; null for PocketSphinx. */
  model: z.string().nullable(),
  file: TranscriptFileDto,
  metadata: z.object({
    duration: z.number().nullable(),
    peaksUrl: z.string().nullable(),
    speakers: z.array(SpeakerInfo),
    speakerSegments: z.array(SpeakerSegment),
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
  /**
   * Set by GET /transcripts/file/{fileId}: whether an unredacted original of this transcript is
   * kept (policy keepOriginal) and the caller may read it (the company's ADMIN only; false for anyone else).
   */
  hasOriginal: z.boolean().optional(),
  /**
   * The transcript's edit version (also in the JSON export), to send with an edit
   * (`If-Match: "<version>"` or `baseVersion`) so an edit made on an older transcript is refused.
   */
  version: z.number().int().optional(),
});
export type TranscriptDto = z.infer<typeof TranscriptDto>;

/** GET /transcripts/{id}/original: the unredacted words, as the transcript's segments are shaped. */
export const OriginalWordsDto = z.object({ fileId: z.string(), speakerSegments: z.array(SpeakerSegment) });
export type OriginalWordsDto = z.infer<typeof OriginalWordsDto>;

export const FileIdParams = z.object({ fileId: Id }).strict();

/** Word and segment ids are short strings made by the service (`w-<run>-<n>`, `s-<run>-<n>`). */
export const TranscriptItemId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'must be an id');
const ItemId = TranscriptItemId;
export const WordParams = z.object({ transcriptId: Id, wordId: ItemId }).strict();

/** The text is checked by the handler so that a bad one answers with the spec's 'Word Failed'. */
export const WordEditBody = z
  .object({ text: z.string().max(1000), speakerSegmentId: ItemId, baseVersion: z.number().int().min(0).optional() })
  .strict();
export type WordEditBody = z.infer<typeof WordEditBody>;

/** PUT …/metadata/words/{wordId}: the spec's message, and what redaction hid in the segment. */
export const WordEditAnswer = MessageBody.extend(RedactedCount.shape);
export type WordEditAnswer = z.infer<typeof WordEditAnswer>;

export const TranscribeBody = z.object({ fileId: Id }).strict();
export const TranscribeAnswer = z.object({
  message: z.string(),
  fileId: z.string(),
  status: z.enum(TRANSCRIPTION_STATUSES),
});
export type TranscribeAnswer = z.infer<typeof TranscribeAnswer>;

/** `transcriptId` may also be the file id (the list's row id); null `clientId` unlinks. */
export const LinkClientBody = z.object({ transcriptId: Id, clientId: Id.nullable() }).strict();
export const LinkClientAnswer = z.object({
  message: z.string(),
  transcriptId: z.string(),
  fileId: z.string(),
  clientId: z.string().nullable(),
});

export const StatusQuery = z
  .object({
    /** Comma-separated file ids (at most 200); without it, the company's most recent 1000 files. */
    fileIds: z
      .string()
      .max(200 * 37)
      .regex(/^[0-9a-fA-F-]{36}(,[0-9a-fA-F-]{36})*$/, 'must be comma-separated file ids')
      .optional(),
    /** HOST_ADMIN only: one company's files (others always see their own company's). */
    companyId: Id.optional(),
  })
  .strict();
export const StatusItem = z.object({
  fileId: z.string(),
  companyId: z.string(),
  status: z.enum(TRANSCRIPTION_STATUSES),
  reason: z.string().nullable(),
  attempts: z.number().int(),
  updatedAt: z.string(),
});
export const StatusList = z.array(StatusItem);
export type StatusItem = z.infer<typeof StatusItem>;

/** GET /transcripts/queue: HOST_ADMIN names the company; an ADMIN always sees their own. */
export const QueueQuery = z.object({ companyId: Id.optional() }).strict();
/**
 * A company's share of the transcription queue: its cap (jobs of the company running at once on
 * every worker together), how many run and wait now, and where each waiting recording stands in
 * the company's own line (1: the next of the company's to start when a worker turns to it).
 */
export const CompanyQueueDto = z.object({
  companyId: z.string(),
  cap: z.number().int(),
  running: z.number().int(),
  pending: z.number().int(),
  items: z.array(z.object({ fileId: z.string(), position: z.number().int(), nextAttemptAt: z.string() })),
});
export type CompanyQueueDto = z.infer<typeof CompanyQueueDto>;

/** DELETE /transcripts/{id}: the file id (the list's row id) or the transcript id. */
export const DeleteAnswer = z.object({ message: z.string(), id: z.string(), fileId: z.string() });
export type DeleteAnswer = z.infer<typeof DeleteAnswer>;
