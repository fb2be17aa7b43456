import {
  FEATURES,
  type CompanyFeatureDto,
  type CompanyFeaturesBody,
  type EnabledFeaturesDto,
  type FeatureDto,
  type FeatureKey,
} from '@earshot/contracts';
import { actorOf, notFound, type Identity, type ServiceContext } from '@earshot/kit';
import type { CompanyRow } from '../db/schema';
import * as repo from '../repositories/companies';
import { platformSwitchMap, setPlatformSwitch } from '../repositories/features';
import { effectiveFeatures } from './companies';
import { assertNotDeleting, assertVisible, loadCompany } from './company-guards';

function withSwitches(row: CompanyRow): CompanyFeatureDto[] {
  const enabled = effectiveFeatures(row);
  return FEATURES.map((f) => ({ ...f, enabled: enabled[f.key]! }));
}

/**
 * The features catalogue with its platform-wide kill switches, and each company's switches. The
 * switches are enforced by every service that answers a feature's routes (the kit's feature gate,
 * kept from company.features_changed and feature.platform_switched).
 */
export class FeatureService {
  constructor(private readonly ctx: ServiceContext) {}

  async catalogue(): Promise<FeatureDto[]> {
    const platform = await platformSwitchMap(this.ctx.db);
    return FEATURES.map((f) => ({ ...f, enabled: platform[f.key] ?? true }));
  }

  /** The platform-wide switch of one feature: off, no company has it, whatever its own switch says. */
  async setPlatform(identity: Identity, key: FeatureKey, enabled: boolean): Promise<FeatureDto> {
    await this.ctx.transact(async (tx, emit) => {
      if (await setPlatformSwitch(tx, key, enabled)) {
        emit({ type: 'feature.platform_switched', companyId: null, actor: actorOf(identity), data: { key, enabled } });
      }
    });
    return (await this.catalogue()).find((f) => f.key === key)!;
  }

  /**
   * What is on for the caller's company: on platform-wide and for the company. A caller without a
   * company (the platform administrator) gets the platform-wide switches.
   */
  async enabledFor(identity: Identity): Promise<EnabledFeaturesDto> {
    const platform = await platformSwitchMap(this.ctx.db);
    const company = identity.companyId ? await repo.findCompany(this.ctx.db, identity.companyId) : undefined;
    const own = company ? effectiveFeatures(company) : {};
    return {
      features: Object.fromEntries(FEATURES.map((f) => [f.key, (platform[f.key] ?? true) && (own[f.key] ?? true)])),
    };
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
      assertNotDeleting(current);
      const before = effectiveFeatures(current);
      const updated = await repo.updateCompany(tx, id, {
        features: { ...current.features, ...body.features } as Record<string, boolean>,
      });
      const after = effectiveFeatures(updated);
      if (JSON.stringify(before) !== JSON.stringify(after)) {
        emit({
          type: 'company.features_changed',
          companyId: id,
          actor: actorOf(identity),
          data: { id, before, after },
        });
      }
      return updated;
    });
    return withSwitches(row);
  }
}
