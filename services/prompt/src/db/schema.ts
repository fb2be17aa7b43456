import { boolean, integer, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ModelPurpose } from '@earshot/contracts';

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
