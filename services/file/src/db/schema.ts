import { bigint, boolean, pgSchema, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const file = pgSchema('file');

/** Uploaded files. The audio itself is in object storage under `storage_key`. */
export const files = file.table('files', {
  id: uuid('id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  storageKey: text('storage_key').notNull().unique(),
  filename: text('filename').notNull(),
  originalName: text('original_name').notNull(),
  mimeType: text('mime_type').notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  status: text('status').notNull(),
  clientId: uuid('client_id'),
  uploadedBy: text('uploaded_by'),
  transcriptionStatus: text('transcription_status').notNull(),
  transcriptionError: text('transcription_error'),
  uploadedAt: timestamp('uploaded_at', { withTimezone: true, mode: 'date' }).notNull(),
  /** Declared at upload (a LANGUAGES code); null for none or `auto`. */
  language: text('language'),
  expectedSpeakers: smallint('expected_speakers'),
  /** The transcript's speakers' names, from transcript.speakers_changed. */
  speakers: text('speakers').array().notNull().default([]),
  /** Legal hold: while true nothing deletes the file. The reason, who and when are the last change's (placing or lifting). */
  held: boolean('held').notNull().default(false),
  holdReason: text('hold_reason'),
  holdBy: text('hold_by'),
  holdAt: timestamp('hold_at', { withTimezone: true, mode: 'date' }),
});
export type FileRow = typeof files.$inferSelect;
export type NewFileRow = typeof files.$inferInsert;

/** A file's tags, one row each; normalised (TagName) before they get here. */
export const fileTags = file.table(
  'file_tags',
  {
    companyId: uuid('company_id').notNull(),
    tag: text('tag').notNull(),
    fileId: uuid('file_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.tag, t.fileId] })],
);

/** Projection of the tenant service's companies: only what quotas need. */
export const companies = file.table('companies', {
  id: uuid('id').primaryKey(),
  maxStorage: bigint('max_storage', { mode: 'number' }),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
});
export type CompanyRow = typeof companies.$inferSelect;
