import { bigint, boolean, doublePrecision, integer, jsonb, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type {
  PeaksDto,
  SpeakerInfo,
  SpeakerSegment,
  TranscriptEditKind,
  TranscriptionStatus,
} from '@earshot/contracts';
import type { SealedEnvelope } from '@earshot/kit';

/**
 * Segments as a row holds them: the array, or for a company with encryption on a sealed envelope
 * `{"enc": "ef1...."}` (services/words-encryption.ts opens it; nothing else reads words raw).
 */
export type StoredSegments = SpeakerSegment[] | SealedEnvelope;

export const transcription = pgSchema('transcription');

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const transcripts = transcription.table('transcripts', {
  id: uuid('id').primaryKey(),
  fileId: uuid('file_id').notNull().unique(),
  companyId: uuid('company_id').notNull(),
  storageKey: text('storage_key').notNull(),
  filename: text('filename').notNull(),
  originalName: text('original_name').notNull(),
  mimeType: text('mime_type').notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  clientId: uuid('client_id'),
  /** The client this recording was unlinked from because that client was deleted (see migration 0012). */
  unlinkedClientId: uuid('unlinked_client_id'),
  uploadedBy: text('uploaded_by'),
  uploadedAt: ts('uploaded_at').notNull(),
  engine: text('engine'),
  duration: doublePrecision('duration'),
  estimatedSeconds: doublePrecision('estimated_seconds'),
  expectedSpeakers: integer('expected_speakers'),
  language: text('language'),
  model: text('model'),
  speakers: jsonb('speakers').$type<SpeakerInfo[]>().notNull().default([]),
  segments: jsonb('segments').$type<StoredSegments>().notNull().default([]),
  peaks: jsonb('peaks').$type<PeaksDto>(),
  completedAt: ts('completed_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at')
    .notNull()
    .defaultNow() /** How many edits the transcript has had: the version an edit names (migration 0013). */,
  editVersion: integer('edit_version').notNull().default(0),
});
export type TranscriptRow = typeof transcripts.$inferSelect;
export type NewTranscriptRow = typeof transcripts.$inferInsert;

export const jobs = transcription.table('jobs', {
  fileId: uuid('file_id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  status: text('status').$type<TranscriptionStatus>().notNull(),
  attempts: integer('attempts').notNull().default(0),
  reason: text('reason'),
  nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
  lockedBy: text('locked_by'),
  lockedUntil: ts('locked_until'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  traceparent: text('traceparent'),
});
export type JobRow = typeof jobs.$inferSelect;

/** Projection of the tenant service's clients: id → company. */
export const clients = transcription.table('clients', {
  id: uuid('id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  name: text('name'),
});

/** One edit of a transcript; the patch holds only the segments it touched (see migration 0004). */
export const edits = transcription.table('edits', {
  id: uuid('id').primaryKey(),
  fileId: uuid('file_id').notNull(),
  companyId: uuid('company_id').notNull(),
  kind: text('kind').$type<TranscriptEditKind>().notNull(),
  summary: text('summary').notNull(),
  actorId: text('actor_id'),
  actorName: text('actor_name'),
  createdAt: ts('created_at').notNull().defaultNow(),
  undone: boolean('undone').notNull().default(false),
  /** Who undid the edit and when (null when it stands): a person's redo stack is what they undid. */
  undoneBy: text('undone_by'),
  undoneAt: ts('undone_at'),
  segmentsBefore: jsonb('segments_before').$type<StoredSegments>().notNull().default([]),
  segmentsAfter: jsonb('segments_after').$type<StoredSegments>().notNull().default([]),
  speakersBefore: jsonb('speakers_before').$type<SpeakerInfo[]>(),
  speakersAfter: jsonb('speakers_after').$type<SpeakerInfo[]>(),
});
export type EditRow = typeof edits.$inferSelect;

/** Projection of auth's users: the company's members, by name, for naming speakers. */
export const members = transcription.table('members', {
  userId: uuid('user_id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  name: text('name').notNull(),
});
