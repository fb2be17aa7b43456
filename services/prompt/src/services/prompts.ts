import {
  parseRange,
  PROMPT_MESSAGES,
  type AvailablePromptDto,
  type FormatFieldDto,
  type PromptBody,
  type PromptDto,
  type PromptScope,
  type PromptState,
  type PromptType,
  type PromptVersionDto,
} from '@earshot/contracts';
import { actorOf, companyScope, conflict, notFound, type Db, type Identity, type ServiceContext } from '@earshot/kit';
import type { PromptConfig } from '../config';
import type { PromptRow, PromptVersionRow } from '../db/schema';
import { patternsUsing } from '../repositories/patterns';
import { assertBuiltInKept, assertNotBuiltIn } from './action-items';
import * as repo from '../repositories/prompts';

/** Stored fields carry only what their type uses; a range is kept as `min-max` without spaces. */
function toStoredField(field: PromptBody['expectedFormat'][number]): FormatFieldDto {
  const stored: FormatFieldDto = { name: field.name, type: field.type, description: field.description };
  const range = field.type === 'integer' && field.range ? parseRange(field.range) : null;
  if (range) stored.range = `${range.min}-${range.max}`;
  if (field.type === 'custom' && field.options) stored.options = field.options;
  return stored;
}

/** What a version fixes: a change to any of these makes a new version (jsonb reorders keys: compared field by field). */
const content = (row: Pick<PromptRow, 'name' | 'description' | 'prompt' | 'type' | 'expectedFormat'>) =>
  JSON.stringify([
    row.name,
    row.description,
    row.prompt,
    row.type,
    row.expectedFormat.map((f) => [f.name, f.type, f.range, f.options, f.description]),
  ]);

export function toPromptState(row: PromptRow): PromptState {
  return {
    name: row.name,
    type: row.type,
    scope: row.scope,
    isGlobal: row.isGlobal,
    companies: row.companies,
    users: row.users,
    version: row.version,
    fields: row.expectedFormat.map((f) => f.name),
  };
}

/** The content a version fixes, from the prompt (its latest version) or a kept version. */
function versioned(row: PromptRow | PromptVersionRow) {
  return {
    name: row.name,
    description: row.description,
    prompt: row.prompt,
    type: row.type,
    expectedFormat: row.expectedFormat,
    version: row.version,
  };
}

function toPromptDto(row: PromptRow): PromptDto {
  return {
    _id: row.id,
    ...versioned(row),
    scope: row.scope,
    isGlobal: row.isGlobal,
    companies: row.companies,
    users: row.users,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toVersionDto(row: PromptVersionRow): PromptVersionDto {
  return { promptId: row.promptId, ...versioned(row), createdAt: row.createdAt.toISOString() };
}

function toAvailableDto(row: PromptRow): AvailablePromptDto {
  const { _id, name, description, type, expectedFormat, scope, isGlobal, version } = toPromptDto(row);
  return { _id, name, description, type, expectedFormat, scope, isGlobal, version };
}

/**
 * Whose prompts a caller may run: a HOST_ADMIN every prompt, or a company's when they name it;
 * anyone else their company's and their own.
 */
function audienceOf(identity: Identity, companyId?: string): repo.Audience | undefined {
  const company = companyScope(identity, companyId);
  if (identity.role === 'HOST_ADMIN') return company ? { companyId: company, userId: null } : undefined;
  return { companyId: company, userId: identity.userId };
}

interface PageOf {
  page: number;
  pageSize: number;
}
const pageOf = <T>(items: T[], total: number, q: PageOf) => ({
  items,
  page: q.page,
  pageSize: q.pageSize,
  total,
  totalPages: Math.ceil(total / q.pageSize),
});

/** Prompts (HOST_ADMIN's /prompts) with their versions, and what each caller may run. */
export class PromptService {
  constructor(private readonly ctx: ServiceContext<PromptConfig>) {}

  async list(query: PageOf & { search?: string; type?: PromptType; scope?: PromptScope | 'NA' }) {
    const { rows, total } = await repo.listPrompts(this.ctx.db, query, query.page, query.pageSize);
    return pageOf(rows.map(toPromptDto), total, query);
  }

  /** The prompt as it is, or with the content of an earlier version. */
  async get(id: string, version?: number): Promise<PromptDto> {
    const row = await repo.findPrompt(this.ctx.db, id);
    if (!row) throw notFound('Prompt');
    if (version === undefined || version === row.version) return toPromptDto(row);
    const past = await repo.findVersion(this.ctx.db, id, version);
    if (!past) throw notFound('Prompt version');
    return { ...toPromptDto(row), ...versioned(past) };
  }

  async versions(id: string, query: PageOf) {
    await this.get(id);
    const { rows, total } = await repo.listVersions(this.ctx.db, id, query.page, query.pageSize);
    return pageOf(rows.map(toVersionDto), total, query);
  }

  async available(identity: Identity, query: PageOf & { search?: string; type?: PromptType; companyId?: string }) {
    const { rows, total } = await repo.listPrompts(
      this.ctx.db,
      { ...query, audience: audienceOf(identity, query.companyId) },
      query.page,
      query.pageSize,
    );
    return pageOf(rows.map(toAvailableDto), total, query);
  }

  /** A prompt the caller may run; any other (another company's, another person's) is not found. */
  async availableOne(identity: Identity, id: string): Promise<AvailablePromptDto> {
    const row = await repo.findPrompt(this.ctx.db, id, audienceOf(identity));
    if (!row) throw notFound('Prompt');
    return toAvailableDto(row);
  }

  async create(identity: Identity, body: PromptBody): Promise<PromptDto> {
    const row = await this.ctx.transact(async (tx, emit) => {
      const created = await repo.insertPrompt(tx, { ...this.fields(body), version: 1 });
      await repo.insertVersion(tx, created, identity.userId);
      emit({
        type: 'prompt.created',
        companyId: null,
        actor: actorOf(identity),
        data: { id: created.id, before: null, after: toPromptState(created) },
      });
      return created;
    });
    return toPromptDto(row);
  }

  /** Replaces the prompt; changed content becomes the next version, earlier ones stay readable. */
  async update(identity: Identity, id: string, body: PromptBody): Promise<PromptDto> {
    const row = await this.ctx.transact(async (tx, emit) => {
      const before = await repo.findPromptForUpdate(tx, id);
      if (!before) throw notFound('Prompt');
      const next = this.fields(body);
      assertBuiltInKept(before, next);
      const newVersion = content(next) !== content(before);
      const after = await repo.updatePrompt(tx, id, {
        ...next,
        version: newVersion ? before.version + 1 : before.version,
      });
      if (newVersion) await repo.insertVersion(tx, after, identity.userId);
      await this.assertPatternsKeepIt(tx, id);
      const [was, now] = [toPromptState(before), toPromptState(after)];
      if (JSON.stringify(was) !== JSON.stringify(now))
        emit({
          type: 'prompt.updated',
          companyId: null,
          actor: actorOf(identity),
          data: { id, before: was, after: now },
        });
      return after;
    });
    return toPromptDto(row);
  }

  async remove(identity: Identity, id: string): Promise<{ message: string }> {
    await this.ctx.transact(async (tx, emit) => {
      const row = await repo.findPromptForUpdate(tx, id);
      if (!row) throw notFound('Prompt');
      assertNotBuiltIn(id);
      const users = await patternsUsing(tx, id);
      if (users.length > 0)
        throw conflict(
          PROMPT_MESSAGES.inUse,
          users.map((p) => ({ patternId: p.id, name: p.name, companyId: p.companyId })),
        );
      await repo.markDeleted(tx, id);
      emit({
        type: 'prompt.deleted',
        companyId: null,
        actor: actorOf(identity),
        data: { id, before: toPromptState(row), after: null },
      });
    });
    return { message: PROMPT_MESSAGES.deleted };
  }

  private fields(body: PromptBody) {
    return {
      name: body.name,
      description: body.description,
      prompt: body.prompt,
      type: body.type,
      expectedFormat: body.expectedFormat.map(toStoredField),
      scope: body.scope,
      isGlobal: body.isGlobal,
      companies: [...new Set(body.companies)],
      users: [...new Set(body.users)],
    };
  }

  /** A changed audience must still reach every pattern that runs the prompt (checked after the change, before commit). */
  private async assertPatternsKeepIt(tx: Db, id: string): Promise<void> {
    const lost = [];
    for (const pattern of await patternsUsing(tx, id)) {
      const reachable = await repo.availableIds(tx, [id], { companyId: pattern.companyId, userId: null });
      if (!reachable.has(id)) lost.push({ patternId: pattern.id, name: pattern.name, companyId: pattern.companyId });
    }
    if (lost.length > 0) throw conflict(PROMPT_MESSAGES.inUse, lost);
  }
}
