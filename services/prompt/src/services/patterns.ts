import {
  PATTERN_MESSAGES,
  type CreatePatternBody,
  type PatternBody,
  type PatternDto,
  type PatternState,
} from '@earshot/contracts';
import {
  actorOf,
  badRequest,
  companyScope,
  forbidden,
  notFound,
  type Db,
  type Identity,
  type ServiceContext,
} from '@earshot/kit';
import type { PromptConfig } from '../config';
import * as repo from '../repositories/patterns';
import { availableIds } from '../repositories/prompts';

function toPatternState(row: repo.PatternWithPrompts): PatternState {
  return { name: row.name, companyId: row.companyId, promptIds: row.promptIds, autoRun: row.autoRun };
}

function toPatternDto(row: repo.PatternWithPrompts): PatternDto {
  return {
    _id: row.id,
    name: row.name,
    description: row.description,
    promptIds: row.promptIds,
    autoRun: row.autoRun,
    companyId: row.companyId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * A pattern runs for its company (or, global, for every company): each prompt must be one that
 * company may run. Locks the prompts so none narrows its audience before this commits.
 */
async function assertRunnable(tx: Db, promptIds: string[], companyId: string | null): Promise<void> {
  const reachable = await availableIds(tx, promptIds, { companyId, userId: null });
  const missing = promptIds.filter((id) => !reachable.has(id));
  if (missing.length > 0) {
    throw badRequest(
      `${PATTERN_MESSAGES.promptNotAvailable}: ${missing.join(', ')}`,
      missing.map((id) => ({
        field: `body.promptIds.${promptIds.indexOf(id)}`,
        message: `prompt ${id} is not available`,
      })),
    );
  }
}

type Access = 'read' | 'write';

/**
 * Analysis patterns: a HOST_ADMIN manages every pattern (global ones, companyId null); an ADMIN
 * their company's, and reads the global ones. Another company's pattern is not found.
 */
export class PatternService {
  constructor(private readonly ctx: ServiceContext<PromptConfig>) {}

  async list(identity: Identity, query: { page: number; pageSize: number; search?: string; companyId?: string }) {
    const company = companyScope(identity, query.companyId);
    const owner = company ? { companyId: company, withGlobal: identity.role !== 'HOST_ADMIN' } : undefined;
    const { rows, total } = await repo.listPatterns(
      this.ctx.db,
      { search: query.search, owner },
      query.page,
      query.pageSize,
    );
    return {
      items: rows.map(toPatternDto),
      page: query.page,
      pageSize: query.pageSize,
      total,
      totalPages: Math.ceil(total / query.pageSize),
    };
  }

  async get(identity: Identity, id: string): Promise<PatternDto> {
    return toPatternDto(this.allowed(identity, await repo.findPattern(this.ctx.db, id), 'read'));
  }

  async create(identity: Identity, body: CreatePatternBody): Promise<PatternDto> {
    const companyId = companyScope(identity, body.companyId);
    const row = await this.ctx.transact(async (tx, emit) => {
      await assertRunnable(tx, body.promptIds, companyId);
      const created = await repo.insertPattern(tx, {
        companyId,
        name: body.name,
        description: body.description,
        autoRun: body.autoRun,
      });
      await repo.setPatternPrompts(tx, created.id, body.promptIds);
      const after = { ...created, promptIds: body.promptIds };
      emit({
        type: 'analysis_pattern.created',
        companyId,
        actor: actorOf(identity),
        data: { id: created.id, before: null, after: toPatternState(after) },
      });
      return after;
    });
    return toPatternDto(row);
  }

  async update(identity: Identity, id: string, body: PatternBody): Promise<PatternDto> {
    const row = await this.ctx.transact(async (tx, emit) => {
      const before = this.allowed(identity, await repo.findPattern(tx, id, true), 'write');
      await assertRunnable(tx, body.promptIds, before.companyId);
      const updated = await repo.updatePattern(tx, id, {
        name: body.name,
        description: body.description,
        autoRun: body.autoRun,
      });
      await repo.setPatternPrompts(tx, id, body.promptIds);
      const after = { ...updated, promptIds: body.promptIds };
      const [was, now] = [toPatternState(before), toPatternState(after)];
      if (JSON.stringify(was) !== JSON.stringify(now)) {
        emit({
          type: 'analysis_pattern.updated',
          companyId: before.companyId,
          actor: actorOf(identity),
          data: { id, before: was, after: now },
        });
      }
      return after;
    });
    return toPatternDto(row);
  }

  async remove(identity: Identity, id: string): Promise<{ message: string }> {
    await this.ctx.transact(async (tx, emit) => {
      const row = this.allowed(identity, await repo.findPattern(tx, id, true), 'write');
      await repo.deletePattern(tx, id);
      emit({
        type: 'analysis_pattern.deleted',
        companyId: row.companyId,
        actor: actorOf(identity),
        data: { id, before: toPatternState(row), after: null },
      });
    });
    return { message: PATTERN_MESSAGES.deleted };
  }

  private allowed(
    identity: Identity,
    row: repo.PatternWithPrompts | undefined,
    access: Access,
  ): repo.PatternWithPrompts {
    if (!row) throw notFound('Pattern');
    if (identity.role === 'HOST_ADMIN') return row;
    if (row.companyId === null) {
      if (access === 'read') return row;
      throw forbidden(PATTERN_MESSAGES.globalPattern);
    }
    if (row.companyId !== companyScope(identity)) throw notFound('Pattern');
    return row;
  }
}
