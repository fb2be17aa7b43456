import {
  AI_CONFIG_MESSAGES,
  type Actor,
  type AiProviderDto,
  type CreateAiProviderBody,
  type ProviderState,
  type UpdateAiProviderBody,
} from '@earshot/contracts';
import { aiSecretBox, conflict, notFound, outboundPolicy, type ServiceContext } from '@earshot/kit';
import type { PromptConfig } from '../config';
import type { NewProviderRow, ProviderRow } from '../db/schema';
import * as repo from '../repositories/providers';
import { assertBaseUrlAllowed } from './errors';

export function toProviderState(row: ProviderRow): ProviderState {
  return { name: row.name, kind: row.kind, baseUrl: row.baseUrl, enabled: row.enabled, apiKeyLast4: row.apiKeyLast4 };
}

export function toProviderDto(row: ProviderRow): AiProviderDto {
  return { _id: row.id, ...toProviderState(row), hasApiKey: row.apiKeySealed !== null, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

/** Base URLs are kept without a trailing slash: the SDK appends `/models`, `/chat/completions`. */
const normaliseUrl = (url: string) => url.replace(/\/+$/, '');

export function providerService(ctx: ServiceContext<PromptConfig>) {
  const box = aiSecretBox(ctx.config);
  const policy = outboundPolicy(ctx.config);

  const keyColumns = (apiKey: string | null): Pick<NewProviderRow, 'apiKeySealed' | 'apiKeyLast4'> =>
    apiKey === null ? { apiKeySealed: null, apiKeyLast4: null } : { apiKeySealed: box.seal(apiKey), apiKeyLast4: apiKey.slice(-4) };

  return {
    async list(query: { page: number; pageSize: number; search?: string }) {
      const { rows, total } = await repo.listProviders(ctx.db, query.search, query.page, query.pageSize);
      return { items: rows.map(toProviderDto), page: query.page, pageSize: query.pageSize, total, totalPages: Math.ceil(total / query.pageSize) };
    },

    dropdown: () => repo.providerDropdown(ctx.db),

    async get(id: string) {
      const row = await repo.findProvider(ctx.db, id);
      if (!row) throw notFound('Provider');
      return toProviderDto(row);
    },

    /** The stored row with its key opened, for calls to the provider. */
    async endpoint(id: string) {
      const row = await repo.findProvider(ctx.db, id);
      if (!row) throw notFound('Provider');
      return { baseUrl: row.baseUrl, apiKey: row.apiKeySealed ? box.open(row.apiKeySealed) : null };
    },

    async create(body: CreateAiProviderBody, actor: Actor) {
      const baseUrl = normaliseUrl(body.baseUrl);
      await assertBaseUrlAllowed(baseUrl, policy);
      const row = await ctx.transact(async (tx, emit) => {
        const created = await repo.insertProvider(tx, { name: body.name, kind: body.kind, baseUrl, enabled: body.enabled, ...keyColumns(body.apiKey ?? null) });
        emit({ type: 'ai_provider.created', companyId: null, actor, data: { id: created.id, before: null, after: toProviderState(created), apiKeySealed: created.apiKeySealed } });
        return created;
      });
      return toProviderDto(row);
    },

    async update(id: string, body: UpdateAiProviderBody, actor: Actor) {
      const baseUrl = body.baseUrl === undefined ? undefined : normaliseUrl(body.baseUrl);
      if (baseUrl !== undefined) await assertBaseUrlAllowed(baseUrl, policy);
      return ctx.transact(async (tx, emit) => {
        const before = await repo.findProviderForUpdate(tx, id);
        if (!before) throw notFound('Provider');
        const { apiKey, ...fields } = body;
        const after = await repo.updateProvider(tx, id, { ...fields, baseUrl, ...(apiKey === undefined ? {} : keyColumns(apiKey)) });
        const [was, now] = [toProviderState(before), toProviderState(after)];
        // A replaced key may keep its last four characters: the sealed form tells that it changed.
        if (JSON.stringify(was) !== JSON.stringify(now) || before.apiKeySealed !== after.apiKeySealed) {
          emit({ type: 'ai_provider.updated', companyId: null, actor, data: { id, before: was, after: now, apiKeySealed: after.apiKeySealed } });
        }
        return toProviderDto(after);
      });
    },

    async remove(id: string, actor: Actor) {
      await ctx.transact(async (tx, emit) => {
        const row = await repo.findProviderForUpdate(tx, id);
        if (!row) throw notFound('Provider');
        if ((await repo.countModelsOf(tx, id)) > 0) throw conflict(AI_CONFIG_MESSAGES.providerInUse);
        await repo.deleteProvider(tx, id);
        emit({ type: 'ai_provider.deleted', companyId: null, actor, data: { id, before: toProviderState(row), after: null } });
      });
      return { message: 'Provider deleted' };
    },
  };
}

export type ProviderService = ReturnType<typeof providerService>;
