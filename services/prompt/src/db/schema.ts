import { boolean, integer, jsonb, pgSchema, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { FormatFieldDto, ModelPurpose, PatternAutoRun, PromptScope, PromptType } from '@earshot/contracts';

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

export const promptVersions = prompt.table('prompt_versions', {
  promptId: uuid('prompt_id').notNull(),
  version: integer('version').notNull(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  prompt: text('prompt').notNull(),
  type: text('type').$type<PromptType>().notNull(),
  expectedFormat: jsonb('expected_format').$type<FormatFieldDto[]>().notNull(),
  createdBy: uuid('created_by'),
  createdAt: ts('created_at').notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.promptId, t.version] })]);
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

export const analysisPatternPrompts = prompt.table('analysis_pattern_prompts', {
  patternId: uuid('pattern_id').notNull(),
  promptId: uuid('prompt_id').notNull(),
  position: integer('position').notNull(),
}, (t) => [primaryKey({ columns: [t.patternId, t.promptId] })]);
