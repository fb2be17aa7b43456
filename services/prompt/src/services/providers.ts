import {
  AI_CONFIG_MESSAGES,
  type AiProviderDto,
  type ConnectionTestResult,
  type CreateAiProviderBody,
  type ProviderModelList,
  type ProviderState,
  type UpdateAiProviderBody,
} from '@earshot/contracts';
import {
  outboundPolicy,
  UnknownProviderError,
  type OutboundPolicy,
  type ProviderEndpoint,
  type ProviderKeySource,
} from '@earshot/ai';
import { actorOf, conflict, notFound, SecretBox, type Identity, type ServiceContext } from '@earshot/kit';
import type { PromptConfig } from '../config';
import type { NewProviderRow, ProviderRow } from '../db/schema';
import * as repo from '../repositories/providers';
import type { ConnectionTester } from './connection';
import { assertBaseUrlAllowed } from './errors';

export function toProviderState(row: ProviderRow): ProviderState {
  return { name: row.name, kind: row.kind, baseUrl: row.baseUrl, enabled: row.enabled, apiKeyLast4: row.apiKeyLast4 };
}

export function toProviderDto(row: ProviderRow): AiProviderDto {
  return {
    _id: row.id,
    ...toProviderState(row),
    hasApiKey: row.apiKeySealed !== null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Base URLs are kept without a trailing slash: the SDK appends `/models`, `/chat/completions`. */
const normaliseUrl = (url: string) => url.replace(/\/+$/, '');

/**
 * The box provider keys are sealed with. Only this service seals and opens them: the services that
 * call providers ask it for a key (in-process or over its internal route), never for the sealed form.
 */
function keyBox(config: PromptConfig): SecretBox {
  return new SecretBox(config.SECRETS_KEY, config.JWT_SECRET ?? 'earshot', 'ai');
}

/** Providers: their settings, their sealed keys, and the keys for the services that call them. */
export class ProviderService implements ProviderKeySource {
  private readonly box: SecretBox;
  private readonly policy: OutboundPolicy;

  constructor(
    private readonly ctx: ServiceContext<PromptConfig>,
    private readonly tester: ConnectionTester,
  ) {
    this.box = keyBox(ctx.config);
    this.policy = outboundPolicy(ctx.config);
  }

  private keyColumns(apiKey: string | null): Pick<NewProviderRow, 'apiKeySealed' | 'apiKeyLast4'> {
    return apiKey === null
      ? { apiKeySealed: null, apiKeyLast4: null }
      : { apiKeySealed: this.box.seal(apiKey), apiKeyLast4: apiKey.slice(-4) };
  }

  async list(query: { page: number; pageSize: number; search?: string }) {
    const { rows, total } = await repo.listProviders(this.ctx.db, query.search, query.page, query.pageSize);
    return {
      items: rows.map(toProviderDto),
      page: query.page,
      pageSize: query.pageSize,
      total,
      totalPages: Math.ceil(total / query.pageSize),
    };
  }

  dropdown() {
    return repo.providerDropdown(this.ctx.db);
  }

  async get(id: string): Promise<AiProviderDto> {
    const row = await repo.findProvider(this.ctx.db, id);
    if (!row) throw notFound('Provider');
    return toProviderDto(row);
  }

  /** The stored row with its key opened, for calls to the provider. */
  async endpoint(id: string): Promise<ProviderEndpoint> {
    const row = await repo.findProvider(this.ctx.db, id);
    if (!row) throw notFound('Provider');
    return { baseUrl: row.baseUrl, apiKey: row.apiKeySealed ? this.box.open(row.apiKeySealed) : null };
  }

  /** "Test connection": asks the provider for its models and reports what it said. */
  async test(id: string): Promise<ConnectionTestResult> {
    return this.tester.provider(await this.endpoint(id));
  }

  /** The models the provider lists (through the same outbound policy as the test). */
  async models(id: string): Promise<ProviderModelList> {
    return this.tester.models(await this.endpoint(id));
  }

  /** A provider's plain key, for a service about to call it (chat, transcription). */
  async key(providerId: string): Promise<string | null> {
    const row = await repo.findProvider(this.ctx.db, providerId);
    if (!row) throw new UnknownProviderError(providerId);
    return row.apiKeySealed ? this.box.open(row.apiKeySealed) : null;
  }

  async create(identity: Identity, body: CreateAiProviderBody): Promise<AiProviderDto> {
    const baseUrl = normaliseUrl(body.baseUrl);
    await assertBaseUrlAllowed(baseUrl, this.policy);
    const row = await this.ctx.transact(async (tx, emit) => {
      const created = await repo.insertProvider(tx, {
        name: body.name,
        kind: body.kind,
        baseUrl,
        enabled: body.enabled,
        ...this.keyColumns(body.apiKey ?? null),
      });
      emit({
        type: 'ai_provider.created',
        companyId: null,
        actor: actorOf(identity),
        data: { id: created.id, before: null, after: toProviderState(created) },
      });
      return created;
    });
    return toProviderDto(row);
  }

  async update(identity: Identity, id: string, body: UpdateAiProviderBody): Promise<AiProviderDto> {
    const baseUrl = body.baseUrl === undefined ? undefined : normaliseUrl(body.baseUrl);
    if (baseUrl !== undefined) await assertBaseUrlAllowed(baseUrl, this.policy);
    return this.ctx.transact(async (tx, emit) => {
      const before = await repo.findProviderForUpdate(tx, id);
      if (!before) throw notFound('Provider');
      const { apiKey, ...fields } = body;
      const after = await repo.updateProvider(tx, id, {
        ...fields,
        baseUrl,
        ...(apiKey === undefined ? {} : this.keyColumns(apiKey)),
      });
      const [was, now] = [toProviderState(before), toProviderState(after)];
      // A replaced key may keep its last four characters: the event still tells that the provider
      // changed, so consumers stop using the key they fetched (never the key itself, nor its sealed form).
      if (JSON.stringify(was) !== JSON.stringify(now) || before.apiKeySealed !== after.apiKeySealed) {
        emit({
          type: 'ai_provider.updated',
          companyId: null,
          actor: actorOf(identity),
          data: { id, before: was, after: now },
        });
      }
      return toProviderDto(after);
    });
  }

  async remove(identity: Identity, id: string): Promise<{ message: string }> {
    await this.ctx.transact(async (tx, emit) => {
      const row = await repo.findProviderForUpdate(tx, id);
      if (!row) throw notFound('Provider');
      if ((await repo.countModelsOf(tx, id)) > 0) throw conflict(AI_CONFIG_MESSAGES.providerInUse);
      await repo.deleteProvider(tx, id);
      emit({
        type: 'ai_provider.deleted',
        companyId: null,
        actor: actorOf(identity),
        data: { id, before: toProviderState(row), after: null },
      });
    });
    return { message: 'Provider deleted' };
  }
}
