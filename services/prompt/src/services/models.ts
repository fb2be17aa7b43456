import type {
  Actor,
  AiModelDto,
  ConnectionTestResult,
  CreateAiModelBody,
  ModelPurpose,
  ModelState,
  UpdateAiModelBody,
} from '@earshot/contracts';
import { actorOf, notFound, type Db, type Identity, type NewEvent, type ServiceContext } from '@earshot/kit';
import type { PromptConfig } from '../config';
import type { ModelRow } from '../db/schema';
import * as repo from '../repositories/models';
import { findProviderForUpdate } from '../repositories/providers';
import type { ConnectionTester } from './connection';
import { duplicateModel, rethrowDuplicateModel, unknownProvider } from './errors';
import type { ProviderService } from './providers';

export function toModelState(row: ModelRow): ModelState {
  return {
    providerId: row.providerId,
    name: row.name,
    label: row.label,
    purpose: row.purpose,
    isDefault: row.isDefault,
    contextSize: row.contextSize,
    enabled: row.enabled,
  };
}

export function toModelDto(row: repo.ModelWithProvider): AiModelDto {
  return {
    _id: row.id,
    providerName: row.providerName,
    ...toModelState(row),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

type Emit = (event: NewEvent) => void;

/** Takes the default mark from whichever model of the purpose has it, telling consumers so. */
async function takeDefault(tx: Db, emit: Emit, actor: Actor, purpose: ModelPurpose, exceptId?: string): Promise<void> {
  await repo.lockDefaults(tx, purpose);
  for (const { before, after } of await repo.clearDefault(tx, purpose, exceptId)) {
    emit({
      type: 'ai_model.updated',
      companyId: null,
      actor,
      data: { id: after.id, before: toModelState(before), after: toModelState(after) },
    });
  }
}

/** Models of the providers, one default per purpose. */
export class ModelService {
  constructor(
    private readonly ctx: ServiceContext<PromptConfig>,
    private readonly providers: ProviderService,
    private readonly tester: ConnectionTester,
  ) {}

  async get(id: string): Promise<AiModelDto> {
    const row = await repo.findModel(this.ctx.db, id);
    if (!row) throw notFound('Model');
    return toModelDto(row);
  }

  async list(query: { page: number; pageSize: number; purpose?: ModelPurpose; providerId?: string }) {
    const { rows, total } = await repo.listModels(this.ctx.db, query, query.page, query.pageSize);
    return {
      items: rows.map(toModelDto),
      page: query.page,
      pageSize: query.pageSize,
      total,
      totalPages: Math.ceil(total / query.pageSize),
    };
  }

  dropdown(query: { purpose?: ModelPurpose }) {
    return repo.modelDropdown(this.ctx.db, query.purpose);
  }

  /** Locked so the provider cannot be deleted while a model is added to it. */
  private async assertProvider(tx: Db, providerId: string): Promise<void> {
    if (!(await findProviderForUpdate(tx, providerId))) throw unknownProvider();
  }

  async create(identity: Identity, body: CreateAiModelBody): Promise<AiModelDto> {
    const actor = actorOf(identity);
    const id = await this.ctx
      .transact(async (tx, emit) => {
        await this.assertProvider(tx, body.providerId);
        if (await repo.modelNameTaken(tx, body.providerId, body.name, body.purpose)) throw duplicateModel();
        if (body.isDefault) await takeDefault(tx, emit, actor, body.purpose);
        const created = await repo.insertModel(tx, {
          providerId: body.providerId,
          name: body.name,
          label: body.label ?? body.name,
          purpose: body.purpose,
          isDefault: body.isDefault,
          contextSize: body.contextSize ?? null,
          enabled: body.enabled,
        });
        emit({
          type: 'ai_model.created',
          companyId: null,
          actor,
          data: { id: created.id, before: null, after: toModelState(created) },
        });
        return created.id;
      })
      .catch(rethrowDuplicateModel);
    return this.get(id);
  }

  async update(identity: Identity, id: string, body: UpdateAiModelBody): Promise<AiModelDto> {
    const actor = actorOf(identity);
    await this.ctx
      .transact(async (tx, emit) => {
        const before = await repo.findModelForUpdate(tx, id);
        if (!before) throw notFound('Model');
        const next = { ...toModelState(before), ...body };
        // A label that merely repeated the model name follows a renamed model.
        if (body.name !== undefined && body.label === undefined && before.label === before.name) next.label = body.name;
        if (body.providerId !== undefined && body.providerId !== before.providerId)
          await this.assertProvider(tx, body.providerId);
        if (await repo.modelNameTaken(tx, next.providerId, next.name, next.purpose, id)) throw duplicateModel();
        if (next.isDefault) await takeDefault(tx, emit, actor, next.purpose, id);
        const after = await repo.updateModel(tx, id, { ...next, contextSize: next.contextSize ?? null });
        const [was, now] = [toModelState(before), toModelState(after)];
        if (JSON.stringify(was) !== JSON.stringify(now))
          emit({ type: 'ai_model.updated', companyId: null, actor, data: { id, before: was, after: now } });
      })
      .catch(rethrowDuplicateModel);
    return this.get(id);
  }

  async remove(identity: Identity, id: string): Promise<{ message: string }> {
    await this.ctx.transact(async (tx, emit) => {
      const row = await repo.findModelForUpdate(tx, id);
      if (!row) throw notFound('Model');
      await repo.deleteModel(tx, id);
      emit({
        type: 'ai_model.deleted',
        companyId: null,
        actor: actorOf(identity),
        data: { id, before: toModelState(row), after: null },
      });
    });
    return { message: 'Model deleted' };
  }

  /** Calls the model (chat, embeddings) or looks for it in its provider's list (speech-to-text). */
  async test(id: string): Promise<ConnectionTestResult> {
    const model = await this.get(id);
    return this.tester.model(await this.providers.endpoint(model.providerId), {
      model: model.name,
      purpose: model.purpose,
    });
  }
}
