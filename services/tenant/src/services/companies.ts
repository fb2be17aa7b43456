import {
  COMPANY_DATA_SERVICES,
  POLICY_MESSAGES,
  FEATURES,
  type ApiKeyAnswer,
  type CompanyAdminConfigDto,
  type CompanyConfigDto,
  type CompanyCreateBody,
  type CompanyDto,
  type CompanyListQuery,
  type CompanyPage,
  type CompanyState,
  type CompanyUpdateBody,
  type CompanyWithKeyDto,
} from '@earshot/contracts';
import {
  actorOf,
  badRequest,
  companyScope,
  conflict,
  notFound,
  processBilling,
  type ApiKeyOwner,
  type ApiKeySource,
  type BillingPort,
  type Db,
  type Identity,
  type ServiceContext,
} from '@earshot/kit';
import type { CompanyRow, NewCompanyRow } from '../db/schema';
import * as repo from '../repositories/companies';
import { figuresOf, type CompanyFigures } from '../repositories/figures';
import { generateApiKey, maskApiKey } from './api-keys';
import { duplicateField, rethrowDuplicate } from './errors';
import { activeCompanyHolds } from '../repositories/holds';
import { assertCompanyNotHeld, toActiveHold } from './holds';
import { assertNotDeleting, assertVisible, loadCompany } from './company-guards';

/** This service's figures of a company, and the credits it can still spend (billing's; 0 before its account opens). */
type Figures = CompanyFigures & { balance: number };
const NO_FIGURES: Figures = { userCount: 0, storageUsed: 0, reported: [], balance: 0 };

export function toCompanyDto(row: CompanyRow, figures: Figures = NO_FIGURES): CompanyDto {
  return {
    _id: row.id,
    name: row.name,
    code: row.code,
    domain: row.domain,
    type: row.type as CompanyDto['type'],
    status: row.status as CompanyDto['status'],
    maxUsers: row.maxUsers,
    maxStorage: row.maxStorage,
    userCount: figures.userCount,
    storageUsed: figures.storageUsed,
    pendingServices:
      row.status === 'deleting' ? COMPANY_DATA_SERVICES.filter((s) => !figures.reported.includes(s)) : [],
    language: row.language as CompanyDto['language'],
    encryption: row.encryption,
    apiKey: maskApiKey(row.apiKeyLast4),
    partnerCompanyId: row.partnerCompanyId,
    favIcon: row.favIcon,
    logo: row.logo,
    mainPageLogo: row.mainPageLogo,
    settings: { theme: row.theme },
    balance: figures.balance,
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
  const invalid = (message: string) =>
    badRequest(`Invalid body.partnerCompanyId: ${message}`, [{ field: 'body.partnerCompanyId', message }]);
  if (partnerId === selfId) throw invalid('a company cannot be its own partner');
  const partner = await repo.findCompany(tx, partnerId);
  if (!partner || partner.status === 'deleting') throw invalid('no such company');
}

/** Companies as the API shows them, with their users and storage figures and their balances (billing's). */
async function withFigures(db: Db, billing: BillingPort, rows: CompanyRow[]): Promise<CompanyDto[]> {
  const ids = rows.map((r) => r.id);
  const [figures, holds, balances] = await Promise.all([
    figuresOf(db, ids),
    activeCompanyHolds(db, ids),
    billing.balances(ids),
  ]);
  return rows.map((r) => ({
    ...toCompanyDto(r, { ...figures.get(r.id)!, balance: balances.get(r.id) ?? 0 }),
    hold: toActiveHold(holds.get(r.id)),
  }));
}

/**
 * Encryption at rest changes only through the data policies, which check the master key, keep it
 * irreversible and tell every service (company.policies_changed). Here it is read-only: the same
 * value is accepted (a form sending every field), a change is refused naming the field.
 */
const encryptionElsewhere = () => {
  const message = POLICY_MESSAGES.encryptionInPolicies;
  return conflict(message, [{ field: 'body.encryption', message }]);
};

/**
 * Companies: create, read, change, delete, rotate the API key; a company's credits and admin
 * config; the public branding by sub-domain. Every method takes the caller's identity (events name
 * it as their actor; reads are scoped by it) and the parsed input.
 */
export class CompanyService {
  private readonly billing: BillingPort;

  constructor(private readonly ctx: ServiceContext) {
    this.billing = processBilling(ctx.database, ctx.config);
  }

  async list(identity: Identity, query: CompanyListQuery): Promise<CompanyPage> {
    const { rows, total } = await repo.listCompanies(
      this.ctx.db,
      { ...query, id: companyScope(identity) ?? undefined },
      query.page,
      query.pageSize,
    );
    return {
      items: await withFigures(this.ctx.db, this.billing, rows),
      page: query.page,
      pageSize: query.pageSize,
      total,
      totalPages: Math.ceil(total / query.pageSize),
    };
  }

  async dropdown(identity: Identity): Promise<{ _id: string; name: string }[]> {
    return (await repo.companyDropdown(this.ctx.db, companyScope(identity) ?? undefined)).map((r) => ({
      _id: r.id,
      name: r.name,
    }));
  }

  async get(identity: Identity, id: string): Promise<CompanyDto> {
    assertVisible(identity, id);
    const [dto] = await withFigures(this.ctx.db, this.billing, [await loadCompany(this.ctx.db, id)]);
    return dto!;
  }

  async create(identity: Identity, body: CompanyCreateBody): Promise<CompanyWithKeyDto> {
    if (body.encryption) throw encryptionElsewhere();
    const apiKey = generateApiKey();
    const row = await this.ctx
      .transact(async (tx, emit) => {
        await checkUnique(tx, body);
        await checkPartner(tx, body.partnerCompanyId);
        const created = await repo.insertCompany(tx, {
          ...(columns(body) as NewCompanyRow),
          apiKeyHash: apiKey.hash,
          apiKeyLast4: apiKey.last4,
        });
        emit({
          type: 'company.created',
          companyId: created.id,
          actor: actorOf(identity),
          data: { id: created.id, before: null, after: toCompanyState(created) },
        });
        return created;
      })
      .catch(rethrowDuplicate);
    await this.openAccount(identity, row);
    return { ...toCompanyDto(row), apiKey: apiKey.key };
  }

  /**
   * Billing opens the new company's account (with its opening credits) before the creation
   * answers, so the console shows the balance at once. Should billing not answer, the company
   * stands all the same: billing opens the account when company.created reaches it.
   */
  private async openAccount(identity: Identity, row: CompanyRow): Promise<void> {
    const company = { id: row.id, name: row.name, code: row.code, status: row.status };
    try {
      await this.billing.openAccount({ company, actor: actorOf(identity) });
    } catch (error) {
      this.ctx.logger.warn({ err: error, companyId: row.id }, 'billing did not open the account; company.created will');
    }
  }

  async update(identity: Identity, id: string, body: CompanyUpdateBody): Promise<CompanyDto> {
    assertVisible(identity, id);
    const after = await this.ctx
      .transact(async (tx, emit) => {
        const before = await repo.findCompanyForUpdate(tx, id);
        if (!before) throw notFound('Company');
        assertNotDeleting(before);
        if (body.encryption !== undefined && body.encryption !== before.encryption) throw encryptionElsewhere();
        await checkUnique(tx, { code: body.code, domain: body.domain }, id);
        await checkPartner(tx, body.partnerCompanyId, id);
        const after = await repo.updateCompany(tx, id, columns(body));
        const [was, now] = [toCompanyState(before), toCompanyState(after)];
        if (JSON.stringify(was) !== JSON.stringify(now)) {
          emit({
            type: 'company.updated',
            companyId: id,
            actor: actorOf(identity),
            data: { id, before: was, after: now },
          });
        }
        return after;
      })
      .catch(rethrowDuplicate);
    // After the commit: billing answers the balance from its own connection (PGlite has only one,
    // which the transaction would hold) or its own process.
    return (await withFigures(this.ctx.db, this.billing, [after]))[0]!;
  }

  /**
   * Starts deleting a company: it shows as `deleting`, company.deleted asks every service to remove
   * its data, and the row goes once all have reported (see company-removal.ts). Asking again while
   * it is deleting changes nothing.
   */
  async remove(identity: Identity, id: string): Promise<{ message: string }> {
    assertVisible(identity, id);
    await this.ctx.transact(async (tx, emit) => {
      const row = await repo.findCompanyForUpdate(tx, id);
      if (!row) throw notFound('Company');
      if (row.status === 'deleting') return;
      await assertCompanyNotHeld(tx, id);
      const partnered = await repo.partneredBy(tx, id);
      if (partnered.length) {
        throw conflict(`This company is the partner of ${partnered.join(', ')}: change their partner first`);
      }
      await repo.updateCompany(tx, id, { status: 'deleting' });
      emit({
        type: 'company.deleted',
        companyId: id,
        actor: actorOf(identity),
        data: { id, before: toCompanyState(row), after: null },
      });
    });
    return { message: 'Company deletion started: every service is removing its data' };
  }

  /** Generates the company's API key, or replaces it: the old key is refused from the commit on. */
  async rotateApiKey(identity: Identity, id: string): Promise<ApiKeyAnswer> {
    assertVisible(identity, id);
    const apiKey = generateApiKey();
    await this.ctx.transact(async (tx, emit) => {
      if (!(await repo.findCompanyForUpdate(tx, id))) throw notFound('Company');
      await repo.updateCompany(tx, id, { apiKeyHash: apiKey.hash, apiKeyLast4: apiKey.last4 });
      emit({ type: 'company.api_key_rotated', companyId: id, actor: actorOf(identity), data: { id } });
    });
    return { apiKey: apiKey.key };
  }

  /** Removes the company's API key (no key afterwards); revoking when there is none changes nothing. */
  async revokeApiKey(identity: Identity, id: string): Promise<{ message: string }> {
    assertVisible(identity, id);
    await this.ctx.transact(async (tx, emit) => {
      const row = await repo.findCompanyForUpdate(tx, id);
      if (!row) throw notFound('Company');
      if (!row.apiKeyHash) return;
      await repo.updateCompany(tx, id, { apiKeyHash: null, apiKeyLast4: null });
      emit({ type: 'company.api_key_revoked', companyId: id, actor: actorOf(identity), data: { id } });
    });
    return { message: 'API key revoked' };
  }

  /**
   * Whose key has this hash (see ApiKeySource): only an active company's key is honoured, so a
   * suspended or inactive company's integrations stop with its users.
   */
  readonly apiKeys: ApiKeySource = {
    owner: async (hash: string): Promise<ApiKeyOwner | null> => {
      const row = await repo.findCompanyByApiKeyHash(this.ctx.db, hash);
      return row?.status === 'active' ? { companyId: row.id } : null;
    },
  };

  /** The public branding of an active company, by its sub-domain: no one is signed in yet. */
  async publicConfig(subdomain: string): Promise<CompanyConfigDto> {
    const row = await repo.findCompanyByDomain(this.ctx.db, subdomain);
    if (!row || row.status !== 'active') throw notFound('Company');
    return {
      name: row.name,
      favIcon: row.favIcon,
      logo: row.logo,
      mainPageLogo: row.mainPageLogo,
      settings: { theme: row.theme },
    };
  }

  async adminConfig(identity: Identity, id: string): Promise<CompanyAdminConfigDto> {
    assertVisible(identity, id);
    const row = await loadCompany(this.ctx.db, id);
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
  }
}
