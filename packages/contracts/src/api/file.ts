import { z } from 'zod';
import { FILE_STATUSES, TRANSCRIPTION_STATUSES } from '../constants';
import { Id, PageQuery, paginated } from '../common';

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
  /** Only the files linked to this client. */
  clientId: Id.optional(),
}).strict();
export type FileListQuery = z.infer<typeof FileListQuery>;
export const FileList = paginated(FileItemDto);
export type FileList = z.infer<typeof FileList>;

/** Query of POST /files/upload: a HOST_ADMIN names the company the file belongs to. */
export const UploadQuery = z.object({ companyId: Id.optional() }).strict();

/** The multipart text fields the upload accepts besides the file. */
export const UploadFields = z.object({ clientId: Id.optional() }).strict();
