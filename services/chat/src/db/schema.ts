import {
  bigint,
  boolean,
  customType,
  doublePrecision,
  integer,
  jsonb,
  pgSchema,
  real,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type {
  CitationDto,
  GptScope,
  GptVisibility,
  KnowledgeFileStatus,
  KnowledgeFormat,
  UsageDto,
} from '@earshot/contracts';

export const chat = pgSchema('chat');

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
/** A sealed row's blind index (a tsvector of keyed-hash tokens, see BlindIndex), written as its text form; null for plain text. */
const blindTsvector = customType<{ data: string; driverData: string }>({ dataType: () => 'tsvector' });

export const conversations = chat.table('conversations', {
  id: uuid('id').primaryKey(),
  companyId: uuid('company_id'),
  ownerId: text('owner_id').notNull(),
  title: text('title').notNull().default(''),
  replyingSince: ts('replying_since'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  lastMessageAt: ts('last_message_at'),
  fileId: uuid('file_id'),
  customGptId: uuid('custom_gpt_id'),
});
export type ConversationRow = typeof conversations.$inferSelect;

export type MessageRole = 'user' | 'assistant';
export type MessageStatus = 'complete' | 'stopped' | 'failed';

export const messages = chat.table('messages', {
  id: uuid('id').primaryKey(),
  conversationId: uuid('conversation_id').notNull(),
  role: text('role').$type<MessageRole>().notNull(),
  content: text('content').notNull(),
  status: text('status').$type<MessageStatus>().notNull(),
  model: text('model'),
  providerId: uuid('provider_id'),
  error: text('error'),
  citations: jsonb('citations').$type<CitationDto[]>().notNull().default([]),
  usage: jsonb('usage').$type<UsageDto>(),
  // The table's default is clock_timestamp(), so a question and its reply never share a time.
  createdAt: ts('created_at').notNull().defaultNow(),
});
export type MessageRow = typeof messages.$inferSelect;
export type NewMessageRow = typeof messages.$inferInsert;

export const feedback = chat.table('feedback', {
  id: uuid('id').primaryKey(),
  messageId: uuid('message_id').notNull(),
  userId: text('user_id').notNull(),
  rating: text('rating').$type<'up' | 'down'>().notNull(),
  comment: text('comment'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const transcriptSegments = chat.table('transcript_segments', {
  companyId: uuid('company_id').notNull(),
  fileId: uuid('file_id').notNull(),
  fileName: text('file_name').notNull(),
  segmentId: text('segment_id').notNull(),
  speaker: text('speaker').notNull(),
  start: doublePrecision('start').notNull(),
  end: doublePrecision('end').notNull(),
  text: text('text').notNull(),
  blind: blindTsvector('blind'),
});
export type SegmentRow = typeof transcriptSegments.$inferSelect;

export const recordings = chat.table('recordings', {
  fileId: uuid('file_id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  fileName: text('file_name').notNull().default(''),
  clientId: uuid('client_id'),
  completedAt: ts('completed_at'),
  uploadedBy: text('uploaded_by'),
});

export const clients = chat.table('clients', {
  id: uuid('id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  name: text('name').notNull(),
});

export const customGpts = chat.table('custom_gpts', {
  id: uuid('id').primaryKey(),
  scope: text('scope').$type<GptScope>().notNull(),
  companyId: uuid('company_id'),
  companyIds: jsonb('company_ids').$type<string[]>().notNull().default([]),
  name: text('name').notNull(),
  description: text('description'),
  avatar: text('avatar'),
  instructions: text('instructions').notNull(),
  modelId: uuid('model_id'),
  starters: jsonb('starters').$type<string[]>().notNull().default([]),
  searchTranscripts: boolean('search_transcripts').notNull().default(false),
  visibility: text('visibility').$type<GptVisibility>().notNull(),
  userIds: jsonb('user_ids').$type<string[]>().notNull().default([]),
  enabled: boolean('enabled').notNull().default(true),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
export type CustomGptRow = typeof customGpts.$inferSelect;
export type NewCustomGptRow = typeof customGpts.$inferInsert;

export const knowledgeFiles = chat.table('knowledge_files', {
  id: uuid('id').primaryKey(),
  customGptId: uuid('custom_gpt_id').notNull(),
  companyId: uuid('company_id'),
  name: text('name').notNull(),
  format: text('format').$type<KnowledgeFormat>().notNull(),
  mimeType: text('mime_type').notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  storageKey: text('storage_key').notNull(),
  status: text('status').$type<KnowledgeFileStatus>().notNull(),
  progress: integer('progress').notNull().default(0),
  error: text('error'),
  pages: integer('pages'),
  chunkCount: integer('chunk_count').notNull().default(0),
  version: integer('version').notNull().default(1),
  attempts: integer('attempts').notNull().default(0),
  leaseUntil: ts('lease_until'),
  uploadedBy: text('uploaded_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
export type KnowledgeFileRow = typeof knowledgeFiles.$inferSelect;
export type NewKnowledgeFileRow = typeof knowledgeFiles.$inferInsert;

export const knowledgeChunks = chat.table('knowledge_chunks', {
  id: uuid('id').primaryKey(),
  fileId: uuid('file_id').notNull(),
  customGptId: uuid('custom_gpt_id').notNull(),
  version: integer('version').notNull(),
  position: integer('position').notNull(),
  page: integer('page'),
  heading: text('heading'),
  text: text('text').notNull(),
  blind: blindTsvector('blind'),
});
export type KnowledgeChunkRow = typeof knowledgeChunks.$inferSelect;

export const knowledgeVectors = chat.table('knowledge_vectors', {
  chunkId: uuid('chunk_id').notNull(),
  customGptId: uuid('custom_gpt_id').notNull(),
  modelId: uuid('model_id').notNull(),
  dimension: integer('dimension').notNull(),
  vector: real('vector').array().notNull(),
});
