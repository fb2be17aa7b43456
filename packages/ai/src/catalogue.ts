import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { boolean, integer, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { Id, type EventOf, type ModelPurpose } from '@earshot/contracts';
import { on, type BaseConfig, type Db, type HandlerSpec, type Migration, type ServiceContext } from '@earshot/kit';
import { CachedProviderKeys, providerKeysFor, type ProviderKeysConfig, type ProviderKeySource } from './keys';
import type { ProviderEndpoint } from './provider-client';

/**
 * Services that call AI providers (chat, transcription) keep this read-side copy of the prompt
 * service's providers and models. Rows are never removed: a deletion leaves a tombstone, so an
 * older update delivered after it cannot bring the row back (last write by `occurredAt` wins).
 */
export function aiCatalogueMigrations(): Migration[] {
  return [
    {
      // After any service's own early migrations; the tables depend on nothing of theirs. The name
      // is what databases have recorded since the catalogue lived in the kit: it stays.
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
    },
    {
      // Keys are no longer copied here (they stay with the prompt service): drop the sealed copies.
      name: '0101_ai_catalogue_without_keys',
      sql: 'alter table ai_providers drop column api_key_sealed;',
    },
  ];
}

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

function tablesFor(schema: string) {
  const s = pgSchema(schema);
  const providers = s.table('ai_providers', {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    baseUrl: text('base_url').notNull(),
    enabled: boolean('enabled').notNull(),
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
    deleted,
    updatedAt: at,
  };
  await tx
    .insert(p)
    .values({ id: data.id, ...values, createdAt: at })
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
  await tx
    .insert(m)
    .values({ id: data.id, ...values, createdAt: at })
    .onConflictDoUpdate({ target: m.id, set: values, setWhere: sql`${m.updatedAt} <= ${at}` });
}

/**
 * The AI catalogue of one service: its subscription to the prompt service's events and the
 * queries that pick a model. Add `aiCatalogueMigrations()` to the service's migrations. Keys come
 * from `keys`, by default the prompt service (see providerKeysFor), looked up at the first call.
 */
export function aiCatalogue(ctx: ServiceContext<BaseConfig & ProviderKeysConfig>, keys?: ProviderKeySource) {
  const t = tables(ctx.schema);
  const cached = new CachedProviderKeys(() => keys ?? providerKeysFor(ctx.database, ctx.config));

  const usable = (purpose: ModelPurpose) =>
    and(
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
        ...(['ai_provider.created', 'ai_provider.updated', 'ai_provider.deleted'] as const).map((type) =>
          on(type, (event, tx) => applyProvider(tx, t, event)),
        ),
        ...(['ai_model.created', 'ai_model.updated', 'ai_model.deleted'] as const).map((type) =>
          on(type, (event, tx) => applyModel(tx, t, event)),
        ),
      ];
    },

    /**
     * Enabled models of enabled providers for a purpose: the default first, then oldest first.
     * `db` is the transaction of a caller inside one (an event handler's).
     */
    async listModels(purpose: ModelPurpose, db: Db = ctx.db): Promise<CatalogueModel[]> {
      return db
        .select({ _id: t.models.id, name: t.models.label, isDefault: t.models.isDefault })
        .from(t.models)
        .innerJoin(t.providers, eq(t.providers.id, t.models.providerId))
        .where(usable(purpose))
        .orderBy(desc(t.models.isDefault), asc(t.models.createdAt), asc(t.models.label));
    },

    /**
     * By id: that model when it is usable for the purpose, else null. Without an id: the purpose's
     * default, else the oldest usable model, else null. Throws when the prompt service cannot give
     * the provider's key: a silent fallback would hide that.
     */
    async resolve(purpose: ModelPurpose, modelId?: string): Promise<ResolvedModel | null> {
      if (modelId !== undefined && !Id.safeParse(modelId).success) return null;
      const [row] = await ctx.db
        .select({
          modelId: t.models.id,
          providerId: t.providers.id,
          model: t.models.name,
          label: t.models.label,
          contextSize: t.models.contextSize,
          baseUrl: t.providers.baseUrl,
          version: t.providers.updatedAt,
        })
        .from(t.models)
        .innerJoin(t.providers, eq(t.providers.id, t.models.providerId))
        .where(modelId ? and(usable(purpose), eq(t.models.id, modelId)) : usable(purpose))
        .orderBy(desc(t.models.isDefault), asc(t.models.createdAt), asc(t.models.id))
        .limit(1);
      if (!row) return null;
      const { baseUrl, version, ...model } = row;
      let apiKey: string | null;
      try {
        apiKey = await cached.key(row.providerId, version);
      } catch (error) {
        throw new Error(
          `The API key of AI provider ${row.providerId} could not be had from the prompt service: ${(error as Error).message}`,
          { cause: error },
        );
      }
      return { ...model, endpoint: { baseUrl, apiKey } };
    },
  };
}
export type AiCatalogue = ReturnType<typeof aiCatalogue>;
