import { randomUUID } from 'node:crypto';
import {
  ERROR_CODES,
  FEATURE_DISABLED_MESSAGE,
  GPT_COPY_SUFFIX,
  GPT_LIMITS,
  GPT_MESSAGES,
  MESSAGES,
  type CreateCustomGptBody,
  type CustomGptDto,
  type CustomGptList,
  type CustomGptListQuery,
  type CustomGptOption,
  type UpdateCustomGptBody,
} from '@earshot/contracts';
import {
  actorOf,
  badRequest,
  FeatureSwitches,
  forbidden,
  notFound,
  type Identity,
  type ServiceContext,
} from '@earshot/kit';
import type { ChatConfig } from '../config';
import type { CustomGptRow, NewCustomGptRow } from '../db/schema';
import * as gptsRepo from '../repositories/custom-gpts';

export function toCustomGpt(row: CustomGptRow, fileCount: number): CustomGptDto {
  return {
    _id: row.id,
    name: row.name,
    description: row.description,
    avatar: row.avatar,
    instructions: row.instructions,
    modelId: row.modelId,
    starters: row.starters,
    searchTranscripts: row.searchTranscripts,
    visibility: row.visibility,
    userIds: row.userIds,
    enabled: row.enabled,
    scope: row.scope,
    companyIds: row.companyIds,
    companyId: row.companyId,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    fileCount,
  };
}

/** A picker lists every GPT a person may use; a company keeps dozens, not thousands. */
const DROPDOWN_MAX = 500;
const isHost = (identity: Identity) => identity.role === 'HOST_ADMIN';

/** Whether the GPT is offered to the caller's company (a HOST_ADMIN reaches every one). */
function inReach(identity: Identity, gpt: CustomGptRow): boolean {
  if (isHost(identity)) return true;
  if (!identity.companyId) return false;
  if (gpt.scope === 'company') return gpt.companyId === identity.companyId;
  return gpt.companyIds.length === 0 || gpt.companyIds.includes(identity.companyId);
}

/** Whether the caller may chat with the GPT: enabled, offered to their company and shown to them. */
function mayChat(identity: Identity, gpt: CustomGptRow): boolean {
  if (!gpt.enabled) return false;
  if (gpt.scope === 'company' ? gpt.companyId !== identity.companyId : !inReach(identity, gpt)) return false;
  if (gpt.visibility === 'company' || gpt.createdBy === identity.userId) return true;
  return gpt.visibility === 'users' && gpt.userIds.includes(identity.userId);
}

/** The owner side: HOST_ADMIN for platform GPTs, the company's ADMIN for its own. */
function mayManage(identity: Identity, gpt: CustomGptRow): boolean {
  if (gpt.scope === 'platform') return isHost(identity);
  return identity.role === 'ADMIN' && gpt.companyId === identity.companyId;
}

type Fields = CreateCustomGptBody | UpdateCustomGptBody;

function rowFields(body: Fields): Partial<NewCustomGptRow> {
  const out: Partial<NewCustomGptRow> = {};
  if (body.name !== undefined) out.name = body.name;
  if (body.description !== undefined) out.description = body.description || null;
  if (body.instructions !== undefined) out.instructions = body.instructions;
  if (body.modelId !== undefined) out.modelId = body.modelId;
  if (body.starters !== undefined) out.starters = body.starters;
  if (body.searchTranscripts !== undefined) out.searchTranscripts = body.searchTranscripts;
  if (body.visibility !== undefined) out.visibility = body.visibility;
  if (body.userIds !== undefined) out.userIds = [...new Set(body.userIds)];
  if (body.enabled !== undefined) out.enabled = body.enabled;
  if (body.avatar !== undefined) out.avatar = body.avatar;
  if (body.companyIds !== undefined) out.companyIds = [...new Set(body.companyIds)];
  return out;
}

/** Custom GPTs: who may see, use and change each, and their life cycle. */
export class CustomGptService {
  constructor(private readonly ctx: ServiceContext<ChatConfig>) {}

  private async dto(row: CustomGptRow): Promise<CustomGptDto> {
    return toCustomGpt(row, (await gptsRepo.fileCounts(this.ctx.db, [row.id])).get(row.id) ?? 0);
  }

  /**
   * A GPT the caller may read: administrators every one in their reach (another company's is
   * 404), everyone else only those they may chat with.
   */
  async readable(identity: Identity, id: string): Promise<CustomGptRow> {
    const gpt = await gptsRepo.find(this.ctx.db, id);
    const admin = identity.role === 'HOST_ADMIN' || identity.role === 'ADMIN';
    if (!gpt || !(admin ? inReach(identity, gpt) : mayChat(identity, gpt))) throw notFound('Custom GPT');
    return gpt;
  }

  /** A GPT the caller may change: another company's is 404, a platform GPT for an ADMIN is 403. */
  async manageable(identity: Identity, id: string): Promise<CustomGptRow> {
    const gpt = await this.readable(identity, id);
    if (!mayManage(identity, gpt)) throw forbidden(GPT_MESSAGES.readOnly);
    return gpt;
  }

  /**
   * A GPT the caller may chat with (else 404: a hidden GPT is not there for them). Starting a GPT
   * conversation and each reply in one both come here, under /chat, which the kit gates by `chat`
   * only: so a company that switched custom GPTs off is refused here (403), as /custom-gpt refuses it.
   */
  async chattable(identity: Identity, id: string): Promise<CustomGptRow> {
    await this.assertCustomGptsOn(identity);
    const gpt = await gptsRepo.find(this.ctx.db, id);
    if (!gpt || !mayChat(identity, gpt)) throw notFound('Custom GPT');
    return gpt;
  }

  private async assertCustomGptsOn(identity: Identity): Promise<void> {
    // As the kit's gate: the platform administrator and anyone without a company are never refused.
    if (!identity.companyId || isHost(identity)) return;
    // The switches the gate reads (this service's copy), read fresh: a reader's cache is cleared
    // only by its own handlers, and the runtime registers those of the gate's reader alone.
    const switches = new FeatureSwitches(this.ctx.db, this.ctx.schema);
    if (!(await switches.enabled(identity.companyId, 'custom_gpts')))
      throw forbidden(FEATURE_DISABLED_MESSAGE, ERROR_CODES.FEATURE_DISABLED);
  }

  async list(identity: Identity, query: CustomGptListQuery): Promise<CustomGptList> {
    const reach = isHost(identity) ? null : (identity.companyId ?? '00000000-0000-0000-0000-000000000000');
    const { rows, total } = await gptsRepo.list(
      this.ctx.db,
      gptsRepo.reachOf(reach),
      query.page,
      query.pageSize,
      query.search || undefined,
    );
    const counts = await gptsRepo.fileCounts(
      this.ctx.db,
      rows.map((r) => r.id),
    );
    return {
      items: rows.map((r) => toCustomGpt(r, counts.get(r.id) ?? 0)),
      page: query.page,
      pageSize: query.pageSize,
      total,
      totalPages: Math.ceil(total / query.pageSize),
    };
  }

  async dropdown(identity: Identity): Promise<CustomGptOption[]> {
    if (!identity.companyId && !isHost(identity)) return [];
    // The rule of mayChat, in SQL: a HOST_ADMIN (who has no company) reaches the platform GPTs only.
    const rows = await gptsRepo.chattable(this.ctx.db, identity.companyId, identity.userId, DROPDOWN_MAX);
    return rows.map((r) => ({
      _id: r.id,
      name: r.name,
      description: r.description,
      avatar: r.avatar,
      starters: r.starters,
    }));
  }

  async get(identity: Identity, id: string): Promise<CustomGptDto> {
    return this.dto(await this.readable(identity, id));
  }

  async create(
    identity: Identity,
    body: CreateCustomGptBody,
    duplicateOf: string | null = null,
  ): Promise<CustomGptDto> {
    const host = isHost(identity);
    if (!host && body.companyIds !== undefined)
      throw badRequest(GPT_MESSAGES.companyIdsHostOnly, [
        { field: 'body.companyIds', message: GPT_MESSAGES.companyIdsHostOnly },
      ]);
    if (!host && !identity.companyId) throw forbidden(MESSAGES.forbidden);
    const row: NewCustomGptRow = {
      id: randomUUID(),
      scope: host ? 'platform' : 'company',
      companyId: host ? null : identity.companyId,
      companyIds: [],
      starters: [],
      userIds: [],
      createdBy: identity.userId,
      name: body.name,
      instructions: body.instructions,
      visibility: body.visibility,
      ...rowFields(body),
    };
    const created = await this.ctx.transact(async (tx, emit) => {
      const saved = await gptsRepo.insert(tx, row);
      emit({
        type: 'custom_gpt.created',
        companyId: saved.companyId,
        actor: actorOf(identity),
        data: {
          id: saved.id,
          scope: saved.scope,
          visibility: saved.visibility,
          enabled: saved.enabled,
          modelId: saved.modelId,
          searchTranscripts: saved.searchTranscripts,
          duplicateOf,
        },
      });
      return saved;
    });
    return toCustomGpt(created, 0);
  }

  async update(identity: Identity, id: string, body: UpdateCustomGptBody): Promise<CustomGptDto> {
    const gpt = await this.manageable(identity, id);
    if (!isHost(identity) && body.companyIds !== undefined)
      throw badRequest(GPT_MESSAGES.companyIdsHostOnly, [
        { field: 'body.companyIds', message: GPT_MESSAGES.companyIdsHostOnly },
      ]);
    const patch = rowFields(body);
    const visibility = patch.visibility ?? gpt.visibility;
    if (visibility === 'users' && (patch.userIds ?? gpt.userIds).length === 0) {
      throw badRequest(GPT_MESSAGES.usersRequired, [{ field: 'body.userIds', message: GPT_MESSAGES.usersRequired }]);
    }
    const updated = await this.ctx.transact(async (tx, emit) => {
      const saved = await gptsRepo.update(tx, id, patch);
      emit({
        type: 'custom_gpt.updated',
        companyId: saved.companyId,
        actor: actorOf(identity),
        data: {
          id,
          changed: Object.keys(patch),
          visibility: saved.visibility,
          enabled: saved.enabled,
          modelId: saved.modelId,
        },
      });
      return saved;
    });
    return this.dto(updated);
  }

  /** A copy without its files: "<name> (copy)", made by the caller's side. */
  async duplicate(identity: Identity, id: string): Promise<CustomGptDto> {
    const gpt = await this.manageable(identity, id);
    const name = `${gpt.name.slice(0, GPT_LIMITS.nameMax - GPT_COPY_SUFFIX.length)}${GPT_COPY_SUFFIX}`;
    return this.create(
      identity,
      {
        name,
        description: gpt.description,
        instructions: gpt.instructions,
        modelId: gpt.modelId,
        starters: gpt.starters,
        searchTranscripts: gpt.searchTranscripts,
        visibility: gpt.visibility,
        userIds: gpt.userIds,
        enabled: gpt.enabled,
        avatar: gpt.avatar,
        ...(isHost(identity) ? { companyIds: gpt.companyIds } : {}),
      },
      gpt.id,
    );
  }
}
