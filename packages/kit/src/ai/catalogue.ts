import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { boolean, integer, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { EventOf, ModelPurpose } from '@earshot/contracts';
import type { Db } from '../db/database';
import type { Migration } from '../db/migrate';
import { on, type HandlerSpec } from '../bus/handlers';
import type { ServiceContext } from '../module';
import { SecretBox } from '../secret-box';
import type { ProviderEndpoint } from './provider-client';

/**
 * Services that call AI providers (chat, transcription) keep this read-side copy of the prompt
 * service's providers and models. Rows are never removed: a deletion leaves a tombstone, so an
 * older update delivered after it cannot bring the row back (last write by `occurredAt` wins).
 */
export function aiCatalogueMigration(): Migration {
  return {
    // After any service's own early migrations; the tables depend on nothing of theirs.
    name: '0100_kit_ai_catalogue',
    sql: `
      create table ai_providers (
        id uuid primary key,
        name text not null,
        base_url text not null,
        enabled boolean not null,
        api_key_sealed text,
        deleted boolean not null default false,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create table ai_models (
        id uuid primary key,
        provider_id uuid not null,
        name text not null,
        label text not null,
        purpose text not null,
        is_default boolean not null,
        context_size integer,
        enabled boolean not null,
        deleted boolean not null default false,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index ai_models_purpose_idx on ai_models (purpose) where not deleted;`,
  };
}

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

function tablesFor(schema: string) {
  const s = pgSchema(schema);
  const providers = s.table('ai_providers', {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    baseUrl: text('base_url').notNull(),
    enabled: boolean('enabled').notNull(),
    apiKeySealed: text('api_key_sealed'),
    deleted: boolean('deleted').notNull().default(false),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  });
  const models = s.table('ai_models', {
    id: uuid('id').primaryKey(),
    providerId: uuid('provider_id').notNull(),
    name: text('name').notNull(),
    label: text('label').notNull(),
    purpose: text('purpose').$type<ModelPurpose>().notNull(),
    isDefault: boolean('is_default').notNull(),
    contextSize: integer('context_size'),
    enabled: boolean('enabled').notNull(),
    deleted: boolean('deleted').notNull().default(false),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  });
  return { providers, models };
}
type Tables = ReturnType<typeof tablesFor>;

// All-in-one runs every service on one connection: queries name the schema, never rely on search_path.
const tablesBySchema = new Map<string, Tables>();
function tables(schema: string): Tables {
  let found = tablesBySchema.get(schema);
  if (!found) tablesBySchema.set(schema, (found = tablesFor(schema)));
  return found;
}

/** A model ready to call: the provider's endpoint with its key opened. */
export interface ResolvedModel {
  modelId: string;
  providerId: string;
  /** The provider's model name (what the API call sends). */
  model: string;
  label: string;
  contextSize: number | null;
  endpoint: ProviderEndpoint;
}

export interface CatalogueModel {
  _id: string;
  /** The label people see. */
  name: string;
  isDefault: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type ProviderEvent = EventOf<'ai_provider.created' | 'ai_provider.updated' | 'ai_provider.deleted'>;
type ModelEvent = EventOf<'ai_model.created' | 'ai_model.updated' | 'ai_model.deleted'>;

async function applyProvider(tx: Db, t: Tables, event: ProviderEvent): Promise<void> {
  const { data } = event;
  const at = new Date(event.occurredAt);
  const p = t.providers;
  const deleted = event.type === 'ai_provider.deleted' || !data.after;
  const state = data.after ?? data.before;
  if (!state) return;
  const values = {
    name: state.name,
    baseUrl: state.baseUrl,
    enabled: state.enabled,
    apiKeySealed: !deleted && 'apiKeySealed' in data ? data.apiKeySealed : null,
    deleted,
    updatedAt: at,
  };
  await tx.insert(p).values({ id: data.id, ...values, createdAt: at })
    .onConflictDoUpdate({ target: p.id, set: values, setWhere: sql`${p.updatedAt} <= ${at}` });
}

async function applyModel(tx: Db, t: Tables, event: ModelEvent): Promise<void> {
  const { data } = event;
  const at = new Date(event.occurredAt);
  const m = t.models;
  const deleted = event.type === 'ai_model.deleted' || !data.after;
  const state = data.after ?? data.before;
  if (!state) return;
  const values = {
    providerId: state.providerId,
    name: state.name,
    label: state.label,
    purpose: state.purpose,
    isDefault: deleted ? false : state.isDefault,
    contextSize: state.contextSize,
    enabled: deleted ? false : state.enabled,
    deleted,
    updatedAt: at,
  };
  await tx.insert(m).values({ id: data.id, ...values, createdAt: at })
    .onConflictDoUpdate({ target: m.id, set: values, setWhere: sql`${m.updatedAt} <= ${at}` });
}

/**
 * The box provider keys are sealed with: the prompt service seals, chat and transcription open,
 * all with the same settings.
 */
export function aiSecretBox(config: { SECRETS_KEY?: string; JWT_SECRET?: string }): SecretBox {
  return new SecretBox(config.SECRETS_KEY, config.JWT_SECRET ?? 'earshot', 'ai');
}

/**
 * The AI catalogue of one service: its subscription to the prompt service's events and the
 * queries that pick a model. Add `aiCatalogueMigration()` to the service's migrations.
 */
export function aiCatalogue(ctx: ServiceContext) {
  const t = tables(ctx.schema);
  const box = aiSecretBox(ctx.config);

  const usable = (purpose: ModelPurpose) => and(
    eq(t.models.purpose, purpose),
    eq(t.models.enabled, true),
    eq(t.models.deleted, false),
    eq(t.providers.enabled, true),
    eq(t.providers.deleted, false),
  );

  return {
    /** The service's handlers of the prompt service's events (add them to its subscriptions). */
    handlers(): HandlerSpec[] {
      return [
        ...(['ai_provider.created', 'ai_provider.updated', 'ai_provider.deleted'] as const).map((type) => on(type, (event, tx) => applyProvider(tx, t, event))),
        ...(['ai_model.created', 'ai_model.updated', 'ai_model.deleted'] as const).map((type) => on(type, (event, tx) => applyModel(tx, t, event))),
      ];
    },

    /** Enabled models of enabled providers for a purpose: the default first, then oldest first. */
    async listModels(purpose: ModelPurpose): Promise<CatalogueModel[]> {
      return ctx.db.select({ _id: t.models.id, name: t.models.label, isDefault: t.models.isDefault })
        .from(t.models).innerJoin(t.providers, eq(t.providers.id, t.models.providerId))
        .where(usable(purpose))
        .orderBy(desc(t.models.isDefault), asc(t.models.createdAt), asc(t.models.label));
    },

    /**
     * By id: that model when it is usable for the purpose, else null. Without an id: the purpose's
     * default, else the oldest usable model, else null. Throws when the provider's key cannot be
     * opened (SECRETS_KEY differs from the prompt service's): a silent fallback would hide that.
     */
    async resolve(purpose: ModelPurpose, modelId?: string): Promise<ResolvedModel | null> {
      if (modelId !== undefined && !UUID.test(modelId)) return null;
      const [row] = await ctx.db.select({
        modelId: t.models.id,
        providerId: t.providers.id,
        model: t.models.name,
        label: t.models.label,
        contextSize: t.models.contextSize,
        baseUrl: t.providers.baseUrl,
        apiKeySealed: t.providers.apiKeySealed,
      })
        .from(t.models).innerJoin(t.providers, eq(t.providers.id, t.models.providerId))
        .where(modelId ? and(usable(purpose), eq(t.models.id, modelId)) : usable(purpose))
        .orderBy(desc(t.models.isDefault), asc(t.models.createdAt), asc(t.models.id))
        .limit(1);
      if (!row) return null;
      let apiKey: string | null = null;
      if (row.apiKeySealed) {
        try {
          apiKey = box.open(row.apiKeySealed);
        } catch {
          throw new Error(`The API key of AI provider ${row.providerId} cannot be opened: SECRETS_KEY (or JWT_SECRET) differs from the prompt service's`);
        }
      }
      const { baseUrl, apiKeySealed: _sealed, ...model } = row;
      return { ...model, endpoint: { baseUrl, apiKey } };
    },
  };
}
export type AiCatalogue = ReturnType<typeof aiCatalogue>;
