import { FEATURES, type CompanyFeatureDto, type CompanyFeaturesBody, type FeatureDto } from '@earshot/contracts';
import { actorOf, notFound, type Identity, type ServiceContext } from '@earshot/kit';
import type { CompanyRow } from '../db/schema';
import * as repo from '../repositories/companies';
import { assertVisible, effectiveFeatures, loadCompany } from './companies';

function withSwitches(row: CompanyRow): CompanyFeatureDto[] {
  const enabled = effectiveFeatures(row);
  return FEATURES.map((f) => ({ ...f, enabled: enabled[f.key]! }));
}

/** The features catalogue and each company's switches. */
export class FeatureService {
  constructor(private readonly ctx: ServiceContext) {}

  catalogue(): FeatureDto[] {
    return FEATURES.map((f) => ({ ...f }));
  }

  /** Which features a company has: the platform administrator any company's, a company administrator their own. */
  async forCompany(identity: Identity, id: string): Promise<CompanyFeatureDto[]> {
    assertVisible(identity, id);
    return withSwitches(await loadCompany(this.ctx.db, id));
  }

  async set(identity: Identity, id: string, body: CompanyFeaturesBody): Promise<CompanyFeatureDto[]> {
    assertVisible(identity, id);
    const row = await this.ctx.transact(async (tx, emit) => {
      const current = await repo.findCompanyForUpdate(tx, id);
      if (!current) throw notFound('Company');
      const before = effectiveFeatures(current);
      const updated = await repo.updateCompany(tx, id, { features: { ...current.features, ...body.features } as Record<string, boolean> });
      const after = effectiveFeatures(updated);
      if (JSON.stringify(before) !== JSON.stringify(after)) {
        emit({ type: 'company.features_changed', companyId: id, actor: actorOf(identity), data: { id, before, after } });
      }
      return updated;
    });
    return withSwitches(row);
  }
}
