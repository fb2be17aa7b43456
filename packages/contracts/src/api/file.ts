import { z } from 'zod';
import { Id, PageQuery, paginated } from '../common';
import { TRANSCRIPTION_STATUSES } from '../events/transcription';

/** Statuses of a stored file (spec part 4); a file that is in storage is 'completed'. */
export const FILE_STATUSES = ['pending', 'processing', 'completed', 'failed', 'not_started'] as const;

/** Audio the upload accepts, recognised by content (magic bytes), never by name or client type. */
export const AUDIO_FORMATS = ['wav', 'mp3', 'm4a', 'aac', 'ogg', 'opus', 'webm', 'flac'] as const;

/** Where a stored file's audio streams from: this prefix plus its storage key (`<companyId>/<uuid>`). */
export const UPLOAD_URL_PREFIX = '/api/uploads/';

export const FILE_MESSAGES = {
  unsupported: `Only audio files can be uploaded (${AUDIO_FORMATS.join(', ')})`,
  quota: 'Storage limit reached for your company',
  noFile: 'Choose an audio file to upload',
  oneFile: 'Upload one file at a time',
  notMultipart: 'Send the file as multipart/form-data',
  companyRequired: 'Name the company to upload to (companyId)',
} as const;

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
});
export type FileItemDto = z.infer<typeof FileItemDto>;

export const FileListQuery = PageQuery.extend({
  /** HOST_ADMIN only: one company's files (others always see their own company). */
  companyId: Id.optional(),
}).strict();
export type FileListQuery = z.infer<typeof FileListQuery>;
export const FileList = paginated(FileItemDto);

/** Query of POST /files/upload: a HOST_ADMIN names the company the file belongs to. */
export const UploadQuery = z.object({ companyId: Id.optional() }).strict();

/** The multipart text fields the upload accepts besides the file. */
export const UploadFields = z.object({ clientId: Id.optional() }).strict();
