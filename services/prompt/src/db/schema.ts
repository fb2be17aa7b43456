import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  doublePrecision,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type {
  ActionItem,
  AnalysisResult,
  AnalysisRunStatus,
  AnalysisUsage,
  CallMetricsDto,
  FormatFieldDto,
  ModelPurpose,
  PatternAutoRun,
  PromptScope,
  PromptType,
} from '@earshot/contracts';

export const prompt = pgSchema('prompt');

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const aiProviders = prompt.table('ai_providers', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  kind: text('kind').$type<'openai-compatible'>().notNull(),
  baseUrl: text('base_url').notNull(),
  enabled: boolean('enabled').notNull(),
  /** SecretBox (purpose 'ai') sealed form; the plain key is never stored. */
  apiKeySealed: text('api_key_sealed'),
  apiKeyLast4: text('api_key_last4'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
export type ProviderRow = typeof aiProviders.$inferSelect;
export type NewProviderRow = typeof aiProviders.$inferInsert;

export const aiModels = prompt.table('ai_models', {
  id: uuid('id').primaryKey().defaultRandom(),
  providerId: uuid('provider_id').notNull(),
  name: text('name').notNull(),
  label: text('label').notNull(),
  purpose: text('purpose').$type<ModelPurpose>().notNull(),
  isDefault: boolean('is_default').notNull(),
  contextSize: integer('context_size'),
  enabled: boolean('enabled').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
export type ModelRow = typeof aiModels.$inferSelect;
export type NewModelRow = typeof aiModels.$inferInsert;

export const prompts = prompt.table('prompts', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  prompt: text('prompt').notNull(),
  type: text('type').$type<PromptType>().notNull(),
  expectedFormat: jsonb('expected_format').$type<FormatFieldDto[]>().notNull(),
  scope: text('scope').$type<PromptScope>(),
  isGlobal: boolean('is_global').notNull(),
  companies: uuid('companies').array().notNull(),
  users: uuid('users').array().notNull(),
  version: integer('version').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  deletedAt: ts('deleted_at'),
});
export type PromptRow = typeof prompts.$inferSelect;
export type NewPromptRow = typeof prompts.$inferInsert;

export const promptVersions = prompt.table(
  'prompt_versions',
  {
    promptId: uuid('prompt_id').notNull(),
    version: integer('version').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    prompt: text('prompt').notNull(),
    type: text('type').$type<PromptType>().notNull(),
    expectedFormat: jsonb('expected_format').$type<FormatFieldDto[]>().notNull(),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.promptId, t.version] })],
);
export type PromptVersionRow = typeof promptVersions.$inferSelect;

export const analysisPatterns = prompt.table('analysis_patterns', {
  id: uuid('id').primaryKey().defaultRandom(),
  companyId: uuid('company_id'),
  name: text('name').notNull(),
  description: text('description').notNull(),
  autoRun: text('auto_run').$type<PatternAutoRun>().notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
export type PatternRow = typeof analysisPatterns.$inferSelect;

export const analysisPatternPrompts = prompt.table(
  'analysis_pattern_prompts',
  {
    patternId: uuid('pattern_id').notNull(),
    promptId: uuid('prompt_id').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.patternId, t.promptId] })],
);

/** The copy of transcripts this service analyses (from events; see services/transcripts.ts). */
export const transcripts = prompt.table('transcripts', {
  fileId: uuid('file_id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  transcriptId: uuid('transcript_id'),
  fileName: text('file_name').notNull().default(''),
  clientId: uuid('client_id'),
  recordedAt: ts('recorded_at'),
  duration: doublePrecision('duration').notNull().default(0),
  parts: integer('parts').notNull().default(0),
  partsReceived: integer('parts_received').array().notNull().default([]),
  completedAt: ts('completed_at'),
  metrics: jsonb('metrics').$type<CallMetricsDto>(),
  uploadedBy: text('uploaded_by'),
});
export type TranscriptRow = typeof transcripts.$inferSelect;

export const transcriptSegments = prompt.table(
  'transcript_segments',
  {
    fileId: uuid('file_id').notNull(),
    segmentId: text('segment_id').notNull(),
    speaker: text('speaker').notNull(),
    start: doublePrecision('start').notNull(),
    end: doublePrecision('end').notNull(),
    text: text('text').notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.segmentId] })],
);
export type SegmentRow = typeof transcriptSegments.$inferSelect;

export const clients = prompt.table('clients', {
  id: uuid('id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  name: text('name').notNull(),
  deleted: boolean('deleted').notNull().default(false),
  updatedAt: ts('updated_at').notNull(),
});

export const companyLanguages = prompt.table('company_languages', {
  id: uuid('id').primaryKey(),
  language: text('language'),
  updatedAt: ts('updated_at').notNull(),
});

export const analysisRuns = prompt.table('analysis_runs', {
  id: uuid('id').primaryKey().defaultRandom(),
  companyId: uuid('company_id').notNull(),
  fileId: uuid('file_id').notNull(),
  promptId: uuid('prompt_id').notNull(),
  promptVersion: integer('prompt_version').notNull(),
  patternId: uuid('pattern_id'),
  status: text('status').$type<AnalysisRunStatus>().notNull(),
  result: jsonb('result').$type<AnalysisResult>(),
  error: text('error'),
  errorCode: text('error_code'),
  model: text('model'),
  modelId: uuid('model_id'),
  usage: jsonb('usage')
    .$type<AnalysisUsage>()
    .notNull()
    .$default(() => ({ inputTokens: 0, outputTokens: 0 })),
  progress: jsonb('progress').$type<{ done: number; total: number }>(),
  durationMs: integer('duration_ms'),
  requestedBy: text('requested_by'),
  sourceEventId: uuid('source_event_id'),
  createdAt: ts('created_at')
    .notNull()
    .default(sql`clock_timestamp()`),
  startedAt: ts('started_at'),
  finishedAt: ts('finished_at'),
  /** Runs of the built-in Action items prompt: the follow-ups it found (services/action-items.ts). */
  actionItems: jsonb('action_items').$type<ActionItem[]>(),
});
export type RunRow = typeof analysisRuns.$inferSelect;
export type NewRunRow = typeof analysisRuns.$inferInsert;

// The dashboards' read model (services/dashboard-projection.ts keeps it from events).

/** One row per call: its day (UTC), duration and the talk figures of its metrics; counted once `seconds` is set. */
export const dashboardCalls = prompt.table('dashboard_calls', {
  fileId: uuid('file_id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  fileName: text('file_name').notNull(),
  at: ts('at').notNull(),
  day: date('day', { mode: 'string' }).notNull(),
  seconds: doublePrecision('seconds'),
  uploadedBy: text('uploaded_by'),
  agentId: text('agent_id'),
  clientId: uuid('client_id'),
  tags: text('tags').array().notNull().default([]),
  agentTalk: doublePrecision('agent_talk'),
  customerTalk: doublePrecision('customer_talk'),
  talk: doublePrecision('talk'),
  silence: doublePrecision('silence'),
  overlaps: integer('overlaps'),
  words: integer('words'),
});
export type DashboardCallRow = typeof dashboardCalls.$inferSelect;

/** Each call's speakers by transcript speaker id; `role` (agent, customer) is set when the channel labels first named them. */
export const dashboardSpeakers = prompt.table(
  'dashboard_speakers',
  {
    fileId: uuid('file_id').notNull(),
    speakerId: text('speaker_id').notNull(),
    name: text('name').notNull(),
    role: text('role').$type<'agent' | 'customer'>(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.speakerId] })],
);

/** Company members' names (user events): an agent speaker renamed to one makes them the call's agent. */
export const dashboardMembers = prompt.table('dashboard_members', {
  userId: text('user_id').primaryKey(),
  companyId: uuid('company_id'),
  name: text('name').notNull(),
  deleted: boolean('deleted').notNull().default(false),
});

/** One scorecard answer: the latest completed run of a prompt on a call, per integer, option or boolean field. */
export const dashboardScores = prompt.table(
  'dashboard_scores',
  {
    fileId: uuid('file_id').notNull(),
    promptId: uuid('prompt_id').notNull(),
    field: text('field').notNull(),
    runId: uuid('run_id').notNull(),
    companyId: uuid('company_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    clientId: uuid('client_id'),
    finishedAt: ts('finished_at').notNull(),
    intValue: integer('int_value'),
    optionValue: text('option_value'),
    boolValue: boolean('bool_value'),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.promptId, t.field] })],
);

/** Tasks of the company with their client and whether they are open (task events). */
export const dashboardTasks = prompt.table('dashboard_tasks', {
  taskId: uuid('task_id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  clientId: uuid('client_id'),
  open: boolean('open').notNull(),
});

/** A client's organisation (client events; the name is in `clients`), for the CRM dashboard. */
export const dashboardClients = prompt.table('dashboard_clients', {
  clientId: uuid('client_id').primaryKey(),
  organisation: text('organisation'),
  updatedAt: ts('updated_at').notNull(),
});

// Sums of the transcribed calls per company and day (and agent, tag), kept with dashboard_calls.
const sums = {
  companyId: uuid('company_id').notNull(),
  day: date('day', { mode: 'string' }).notNull(),
  calls: integer('calls').notNull(),
  seconds: doublePrecision('seconds').notNull(),
};
export const dashboardDays = prompt.table(
  'dashboard_days',
  {
    ...sums,
    sharedCalls: integer('shared_calls').notNull(),
    agentShare: doublePrecision('agent_share').notNull(),
    customerShare: doublePrecision('customer_share').notNull(),
    silentCalls: integer('silent_calls').notNull(),
    silenceShare: doublePrecision('silence_share').notNull(),
    measuredCalls: integer('measured_calls').notNull(),
    overlaps: bigint('overlaps', { mode: 'number' }).notNull(),
    words: bigint('words', { mode: 'number' }).notNull(),
    talk: doublePrecision('talk').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day] })],
);
export const dashboardAgentDays = prompt.table(
  'dashboard_agent_days',
  {
    ...sums,
    agentId: text('agent_id').notNull(),
    sharedCalls: integer('shared_calls').notNull(),
    agentShare: doublePrecision('agent_share').notNull(),
    words: bigint('words', { mode: 'number' }).notNull(),
    talk: doublePrecision('talk').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day, t.agentId] })],
);
export const dashboardTagDays = prompt.table(
  'dashboard_tag_days',
  {
    ...sums,
    tag: text('tag').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day, t.tag] })],
);
export const dashboardClientMonths = prompt.table(
  'dashboard_client_months',
  {
    companyId: uuid('company_id').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    clientId: uuid('client_id').notNull(),
    calls: integer('calls').notNull(),
    seconds: doublePrecision('seconds').notNull(),
    lastAt: ts('last_at'),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.month, t.clientId] })],
);
