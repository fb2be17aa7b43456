import { doublePrecision, jsonb, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { CitationDto, UsageDto } from '@earshot/contracts';

export const chat = pgSchema('chat');

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

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
