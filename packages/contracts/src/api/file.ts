import { z } from 'zod';
import { FILE_STATUSES, TRANSCRIPTION_STATUSES } from '../constants';
import { TAG_LENGTH_MAX, TAGS_PER_FILE_MAX } from '../file-constants';
import { Id, PageQuery, paginated } from '../common';
import { DayString } from './credits';
import { RedactedCount } from './redacted';
import { LANGUAGES } from './tenant';

// eslint-disable-next-line no-control-regex
const ONE_LINE = /^[^\u0000-\u001f\u007f]*$/;

/** The languages a recording may be declared in at upload: the console's, or `auto` (the engine detects it). */
export const UPLOAD_LANGUAGES = ['auto', ...LANGUAGES] as const;
export { TAG_LENGTH_MAX, TAGS_PER_FILE_MAX } from '../file-constants';
export const UPLOAD_SPEAKERS_MAX = 10;

/** A tag as stored: trimmed and lower-cased, so "Urgent " and "urgent" are one tag. */
export const TagName = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(TAG_LENGTH_MAX)
  .regex(ONE_LINE, 'must not contain control characters');

/** Upload answer: the stored file record. `path` is the storage key, `url` where it streams from. */
export const UploadedFileDto = z.object({
  _id: z.string(),
  url: z.string(),
  path: z.string(),
  filename: z.string(),
  originalName: z.string(),
  size: z.number().int(),
  mimeType: z.string(),
  uploadDate: z.string(),
  status: z.enum(FILE_STATUSES),
});
export type UploadedFileDto = z.infer<typeof UploadedFileDto>;

/** A row of the files list (and GET /files/{id}). */
export const FileItemDto = z.object({
  _id: z.string(),
  companyId: z.string(),
  originalName: z.string(),
  filename: z.string(),
  size: z.number().int(),
  mimeType: z.string(),
  uploadDate: z.string(),
  status: z.enum(FILE_STATUSES),
  transcriptionStatus: z.enum(TRANSCRIPTION_STATUSES),
  transcriptionError: z.string().nullable(),
  clientId: z.string().nullable(),
  url: z.string(),
  path: z.string(),
  /** Normalised (see TagName), sorted. */
  tags: z.array(z.string()),
  /** The language declared at upload; null when none was or `auto`. */
  language: z.string().nullable(),
  /** How many speakers the uploader said the recording has (a hint for the engine); null when not said. */
  expectedSpeakers: z.number().int().nullable(),
  /** The names of the transcript's speakers (as renamed), in the transcript's order; empty before it is transcribed. */
  speakers: z.array(z.string()),
  /** Whether a legal hold is on the recording itself (a client's or company's hold is not shown here). */
  hold: z.boolean().optional(),
  /** While held: why and since when (the placing's reason and time); null when not held. */
  holdReason: z.string().nullable().optional(),
  holdAt: z.string().nullable().optional(),
});
export type FileItemDto = z.infer<typeof FileItemDto>;

/** The filters the recordings list and the search share (search extends it with its own). */
export const RecordingFilters = z.object({
  /** HOST_ADMIN only: one company's files (others always see their own company). */
  companyId: Id.optional(),
  /** Only the files linked to this client. */
  clientId: Id.optional(),
  tag: TagName.optional(),
  /** Uploaded on or after this UTC day. */
  from: DayString.optional(),
  /** Uploaded on or before this UTC day. */
  to: DayString.optional(),
  /** A speaker's name, matched whole and case-insensitively. */
  speaker: z.string().trim().min(1).max(80).regex(ONE_LINE, 'must not contain control characters').optional(),
  language: z.enum(LANGUAGES).optional(),
});
export type RecordingFilters = z.infer<typeof RecordingFilters>;

export const FileListQuery = PageQuery.merge(RecordingFilters)
  .extend({
    status: z.enum(TRANSCRIPTION_STATUSES).optional(),
  })
  .strict();
export type FileListQuery = z.infer<typeof FileListQuery>;
export const FileList = paginated(FileItemDto);
export type FileList = z.infer<typeof FileList>;

/** `?companyId=`: the company a HOST_ADMIN acts on (POST /files/upload, /tags). */
export const CompanyQuery = z.object({ companyId: Id.optional() }).strict();
/** Query of POST /files/upload: a HOST_ADMIN names the company the file belongs to. */
export const UploadQuery = CompanyQuery;

/** The multipart text fields the upload accepts besides the file (text, hence the coercion). */
export const UploadFields = z
  .object({
    clientId: Id.optional(),
    language: z.enum(UPLOAD_LANGUAGES).optional(),
    /** How many people speak in the recording. */
    speakers: z.coerce.number().int().min(1).max(UPLOAD_SPEAKERS_MAX).optional(),
  })
  .strict();
export type UploadFields = z.infer<typeof UploadFields>;

// ---------------------------------------------------------------- tags

/** PUT /files/{fileId}/tags: the file's whole set of tags (normalised, duplicates dropped). */
export const TagsBody = z.object({ tags: z.array(TagName).max(TAGS_PER_FILE_MAX) }).strict();
export type TagsBody = z.infer<typeof TagsBody>;
/** The file's tags as stored, and how many spans the company's redaction hid in them. */
export const FileTagsAnswer = z.object({ fileId: z.string(), tags: z.array(z.string()) }).extend(RedactedCount.shape);
export type FileTagsAnswer = z.infer<typeof FileTagsAnswer>;

/** A tag of the company and how many of its recordings carry it. */
export const TagCount = z.object({ name: z.string(), count: z.number().int() });
export type TagCount = z.infer<typeof TagCount>;
/** GET /tags, and the answer of a rename or delete: most used first, then by name. */
export const TagList = z.array(TagCount);
export type TagList = z.infer<typeof TagList>;

export const TagParams = z.object({ name: TagName }).strict();
/** PUT /tags/{name}: the new name; an existing one merges the two. */
export const TagRenameBody = z.object({ name: TagName }).strict();
export type TagRenameBody = z.infer<typeof TagRenameBody>;
