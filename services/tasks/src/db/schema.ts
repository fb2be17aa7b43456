import { sql } from 'drizzle-orm';
import {
  doublePrecision,
  date,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type { ActionItem, TaskStatus } from '@earshot/contracts';

export const tasksSchema = pgSchema('tasks');

// The migration gives tasks' times millisecond precision (timestamptz(3)); Drizzle only reads them.
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const tasks = tasksSchema.table('tasks', {
  id: uuid('id').primaryKey().defaultRandom(),
  companyId: uuid('company_id').notNull(),
  title: text('title').notNull(),
  description: text('description').notNull(),
  status: text('status').$type<TaskStatus>().notNull(),
  assigneeId: uuid('assignee_id'),
  dueDate: date('due_date', { mode: 'string' }),
  clientId: uuid('client_id'),
  linkFileId: uuid('link_file_id'),
  linkSeconds: doublePrecision('link_seconds'),
  createdBy: uuid('created_by').notNull(),
  createdAt: ts('created_at')
    .notNull()
    .default(sql`clock_timestamp()`),
  updatedAt: ts('updated_at')
    .notNull()
    .default(sql`clock_timestamp()`),
  runId: uuid('run_id'),
  runItem: integer('run_item'),
});
export type TaskRow = typeof tasks.$inferSelect;
export type NewTaskRow = typeof tasks.$inferInsert;

export const members = tasksSchema.table('members', {
  id: uuid('id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  status: text('status'),
});
export type MemberRow = typeof members.$inferSelect;

export const clients = tasksSchema.table('clients', {
  id: uuid('id').primaryKey(),
  companyId: uuid('company_id').notNull(),
});

export const recordings = tasksSchema.table('recordings', {
  fileId: uuid('file_id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  originalName: text('original_name').notNull(),
  uploadedAt: ts('uploaded_at').notNull(),
  clientId: uuid('client_id'),
  uploadedBy: uuid('uploaded_by'),
});
export type RecordingRow = typeof recordings.$inferSelect;

export const proposals = tasksSchema.table('proposals', {
  runId: uuid('run_id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  fileId: uuid('file_id').notNull(),
  items: jsonb('items').$type<ActionItem[]>().notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});
export type ProposalRow = typeof proposals.$inferSelect;

export const feeds = tasksSchema.table('feeds', {
  userId: uuid('user_id').primaryKey(),
  companyId: uuid('company_id'),
  tokenHash: text('token_hash').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const reminders = tasksSchema.table(
  'reminders',
  {
    taskId: uuid('task_id').notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    companyId: uuid('company_id').notNull(),
    sentAt: ts('sent_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.dueDate] })],
);
