import {
  FEATURES,
  type Actor,
  type CompanyCreateBody,
  type CompanyDto,
  type CompanyListQuery,
  type CompanyState,
  type CompanyUpdateBody,
  type CompanyFeaturesBody,
} from '@earshot/contracts';
import { badRequest, companyScope, conflict, notFound, type Db, type Identity, type ServiceContext } from '@earshot/kit';
import type { CompanyRow, NewCompanyRow } from '../db/schema';
import * as repo from '../repositories/companies';
import { countMembers } from '../repositories/members';
import { generateApiKey, maskApiKey } from './api-keys';
import { duplicateField, rethrowDuplicate } from './errors';

export function toCompanyDto(row: CompanyRow): CompanyDto {
  return {
    _id: row.id,
    name: row.name,
    code: row.code,
    domain: row.domain,
    type: row.type as CompanyDto['type'],
    status: row.status as CompanyDto['status'],
    maxUsers: row.maxUsers,
    maxStorage: row.maxStorage,
    language: row.language as CompanyDto['language'],
    encryption: row.encryption,
    apiKey: maskApiKey(row.apiKeyLast4),
    partnerCompanyId: row.partnerCompanyId,
    favIcon: row.favIcon,
    logo: row.logo,
    mainPageLogo: row.mainPageLogo,
    settings: { theme: row.theme },
    credits: Number(row.credits),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What events carry: everything but secrets (no API key, not even masked) and bulky counters. */
export function toCompanyState(row: CompanyRow): CompanyState {
  return {
    name: row.name,
    code: row.code,
    domain: row.domain,
    status: row.status,
    maxUsers: row.maxUsers,
    maxStorage: row.maxStorage,
    type: row.type,
    language: row.language,
    encryption: row.encryption,
    partnerCompanyId: row.partnerCompanyId,
    favIcon: row.favIcon,
    logo: row.logo,
    mainPageLogo: row.mainPageLogo,
    theme: row.theme,
  };
}

/** The feature switches in force: the catalogue's defaults overridden by the company's choices. */
export function effectiveFeatures(row: CompanyRow): Record<string, boolean> {
  return Object.fromEntries(FEATURES.map((f) => [f.key, row.features[f.key] ?? f.defaultEnabled]));
}

/** Body fields → column values (only those present: PUT is partial). */
function columns(body: CompanyUpdateBody): Partial<NewCompanyRow> {
  const { settings, ...rest } = body;
  return { ...rest, ...(settings ? { theme: settings.theme as Record<string, string> } : {}) };
}

async function checkUnique(tx: Db, values: { code?: string; domain?: string }, exceptId?: string) {
  const [taken] = await repo.takenFields(tx, values, exceptId);
  if (taken) throw duplicateField(taken);
}

async function checkPartner(tx: Db, partnerId: string | null | undefined, selfId?: string) {
  if (!partnerId) return;
  const invalid = (message: string) => badRequest(`Invalid body.partnerCompanyId: ${message}`, [{ field: 'body.partnerCompanyId', message }]);
  if (partnerId === selfId) throw invalid('a company cannot be its own partner');
  if (!(await repo.findCompany(tx, partnerId))) throw invalid('no such company');
}

/** A company administrator sees only their own company; another company is simply not found. */
export function assertVisible(who: Identity, id: string): void {
  if (companyScope(who, id) !== id) throw notFound('Company');
}

export function companyService(ctx: ServiceContext) {
  const company = async (id: string) => {
    const row = await repo.findCompany(ctx.db, id);
    if (!row) throw notFound('Company');
    return row;
  };

  const features = async (id: string) => {
    const enabled = effectiveFeatures(await company(id));
    return FEATURES.map((f) => ({ ...f, enabled: enabled[f.key]! }));
  };

  return {
    features,

    async get(id: string) {
      return toCompanyDto(await company(id));
    },

    async list(query: CompanyListQuery) {
      const { rows, total } = await repo.listCompanies(ctx.db, query, query.page, query.pageSize);
      return { items: rows.map(toCompanyDto), page: query.page, pageSize: query.pageSize, total, totalPages: Math.ceil(total / query.pageSize) };
    },

    async dropdown() {
      return (await repo.companyDropdown(ctx.db)).map((r) => ({ _id: r.id, name: r.name }));
    },

    async create(body: CompanyCreateBody, actor: Actor) {
      const apiKey = generateApiKey();
      const row = await ctx.transact(async (tx, emit) => {
        await checkUnique(tx, body);
        await checkPartner(tx, body.partnerCompanyId);
        const created = await repo.insertCompany(tx, { ...(columns(body) as NewCompanyRow), apiKeyHash: apiKey.hash, apiKeyLast4: apiKey.last4 });
        emit({ type: 'company.created', companyId: created.id, actor, data: { id: created.id, before: null, after: toCompanyState(created) } });
        return created;
      }).catch(rethrowDuplicate);
      return { ...toCompanyDto(row), apiKey: apiKey.key };
    },

    async update(id: string, body: CompanyUpdateBody, actor: Actor) {
      return ctx.transact(async (tx, emit) => {
        const before = await repo.findCompanyForUpdate(tx, id);
        if (!before) throw notFound('Company');
        await checkUnique(tx, { code: body.code, domain: body.domain }, id);
        await checkPartner(tx, body.partnerCompanyId, id);
        const after = await repo.updateCompany(tx, id, columns(body));
        const [was, now] = [toCompanyState(before), toCompanyState(after)];
        if (JSON.stringify(was) !== JSON.stringify(now)) {
          emit({ type: 'company.updated', companyId: id, actor, data: { id, before: was, after: now } });
        }
        return toCompanyDto(after);
      }).catch(rethrowDuplicate);
    },

    async remove(id: string, actor: Actor) {
      await ctx.transact(async (tx, emit) => {
        const row = await repo.findCompanyForUpdate(tx, id);
        if (!row) throw notFound('Company');
        const partnered = await repo.partneredBy(tx, id);
        if (partnered.length) {
          throw conflict(`This company is the partner of ${partnered.join(', ')}: change their partner first`);
        }
        const members = await countMembers(tx, id);
        if (members > 0) {
          throw conflict(`This company still has ${members} user${members === 1 ? '' : 's'}: delete them first`);
        }
        await repo.deleteCompany(tx, id);
        emit({ type: 'company.deleted', companyId: id, actor, data: { id, before: toCompanyState(row), after: null } });
      });
      return { message: 'Company deleted' };
    },

    async rotateApiKey(id: string, actor: Actor) {
      const apiKey = generateApiKey();
      const row = await ctx.transact(async (tx, emit) => {
        if (!(await repo.findCompanyForUpdate(tx, id))) throw notFound('Company');
        const updated = await repo.updateCompany(tx, id, { apiKeyHash: apiKey.hash, apiKeyLast4: apiKey.last4 });
        emit({ type: 'company.api_key_rotated', companyId: id, actor, data: { id } });
        return updated;
      });
      return { ...toCompanyDto(row), apiKey: apiKey.key };
    },

    /** The public branding of an active company, by its sub-domain. */
    async publicConfig(subdomain: string) {
      const row = await repo.findCompanyByDomain(ctx.db, subdomain);
      if (!row || row.status !== 'active') throw notFound('Company');
      return { name: row.name, favIcon: row.favIcon, logo: row.logo, mainPageLogo: row.mainPageLogo, settings: { theme: row.theme } };
    },

    /** Credits of a company: the platform administrator's any, a company administrator's own only. */
    async credits(id: string, who: Identity) {
      assertVisible(who, id);
      return { credits: Number((await company(id)).credits) };
    },

    async adminConfig(id: string) {
      const row = await company(id);
      return {
        _id: row.id,
        name: row.name,
        favIcon: row.favIcon,
        logo: row.logo,
        mainPageLogo: row.mainPageLogo,
        settings: { theme: row.theme },
        domain: row.domain,
        language: row.language as CompanyDto['language'],
        status: row.status as CompanyDto['status'],
        features: effectiveFeatures(row),
      };
    },

    async setFeatures(id: string, body: CompanyFeaturesBody, actor: Actor) {
      await ctx.transact(async (tx, emit) => {
        const row = await repo.findCompanyForUpdate(tx, id);
        if (!row) throw notFound('Company');
        const before = effectiveFeatures(row);
        const features = { ...row.features, ...body.features } as Record<string, boolean>;
        const after = effectiveFeatures(await repo.updateCompany(tx, id, { features }));
        if (JSON.stringify(before) !== JSON.stringify(after)) {
          emit({ type: 'company.features_changed', companyId: id, actor, data: { id, before, after } });
        }
      });
      return features(id);
    },
  };
}

export type CompanyService = ReturnType<typeof companyService>;
