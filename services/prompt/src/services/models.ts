import type { Actor, AiModelDto, CreateAiModelBody, ModelPurpose, ModelState, UpdateAiModelBody } from '@earshot/contracts';
import { notFound, type Db, type NewEvent, type ServiceContext } from '@earshot/kit';
import type { ModelRow } from '../db/schema';
import * as repo from '../repositories/models';
import { findProviderForUpdate } from '../repositories/providers';
import { duplicateModel, rethrowDuplicateModel, unknownProvider } from './errors';

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
  return { _id: row.id, providerName: row.providerName, ...toModelState(row), createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

type Emit = (event: NewEvent) => void;

/** Takes the default mark from whichever model of the purpose has it, telling consumers so. */
async function takeDefault(tx: Db, emit: Emit, actor: Actor, purpose: ModelPurpose, exceptId?: string): Promise<void> {
  await repo.lockDefaults(tx, purpose);
  for (const { before, after } of await repo.clearDefault(tx, purpose, exceptId)) {
    emit({ type: 'ai_model.updated', companyId: null, actor, data: { id: after.id, before: toModelState(before), after: toModelState(after) } });
  }
}

export function modelService(ctx: ServiceContext) {
  const dto = async (id: string) => {
    const row = await repo.findModel(ctx.db, id);
    if (!row) throw notFound('Model');
    return toModelDto(row);
  };

  const assertProvider = async (tx: Db, providerId: string) => {
    // Locked so the provider cannot be deleted while a model is added to it.
    if (!(await findProviderForUpdate(tx, providerId))) throw unknownProvider();
  };

  return {
    get: dto,

    async list(query: { page: number; pageSize: number; purpose?: ModelPurpose; providerId?: string }) {
      const { rows, total } = await repo.listModels(ctx.db, query, query.page, query.pageSize);
      return { items: rows.map(toModelDto), page: query.page, pageSize: query.pageSize, total, totalPages: Math.ceil(total / query.pageSize) };
    },

    dropdown: (purpose?: ModelPurpose) => repo.modelDropdown(ctx.db, purpose),

    async create(body: CreateAiModelBody, actor: Actor) {
      const id = await ctx.transact(async (tx, emit) => {
        await assertProvider(tx, body.providerId);
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
        emit({ type: 'ai_model.created', companyId: null, actor, data: { id: created.id, before: null, after: toModelState(created) } });
        return created.id;
      }).catch(rethrowDuplicateModel);
      return dto(id);
    },

    async update(id: string, body: UpdateAiModelBody, actor: Actor) {
      await ctx.transact(async (tx, emit) => {
        const before = await repo.findModelForUpdate(tx, id);
        if (!before) throw notFound('Model');
        const next = { ...toModelState(before), ...body };
        // A label that merely repeated the model name follows a renamed model.
        if (body.name !== undefined && body.label === undefined && before.label === before.name) next.label = body.name;
        if (body.providerId !== undefined && body.providerId !== before.providerId) await assertProvider(tx, body.providerId);
        if (await repo.modelNameTaken(tx, next.providerId, next.name, next.purpose, id)) throw duplicateModel();
        if (next.isDefault) await takeDefault(tx, emit, actor, next.purpose, id);
        const after = await repo.updateModel(tx, id, { ...next, contextSize: next.contextSize ?? null });
        const [was, now] = [toModelState(before), toModelState(after)];
        if (JSON.stringify(was) !== JSON.stringify(now)) emit({ type: 'ai_model.updated', companyId: null, actor, data: { id, before: was, after: now } });
      }).catch(rethrowDuplicateModel);
      return dto(id);
    },

    async remove(id: string, actor: Actor) {
      await ctx.transact(async (tx, emit) => {
        const row = await repo.findModelForUpdate(tx, id);
        if (!row) throw notFound('Model');
        await repo.deleteModel(tx, id);
        emit({ type: 'ai_model.deleted', companyId: null, actor, data: { id, before: toModelState(row), after: null } });
      });
      return { message: 'Model deleted' };
    },
  };
}

export type ModelService = ReturnType<typeof modelService>;
