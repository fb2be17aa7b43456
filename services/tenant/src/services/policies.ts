import { MASTER_KEY_MESSAGES, POLICY_MESSAGES, type CompanyPolicies } from '@earshot/contracts';
import {
  actorOf,
  conflict,
  masterKeysFrom,
  notFound,
  type EncryptionConfig,
  type Identity,
  type ServiceContext,
} from '@earshot/kit';
import type { CompanyRow } from '../db/schema';
import type { CompanyPolicyRow } from '../db/policies';
import * as repo from '../repositories/policies';
import { findCompanyForUpdate, updateCompany } from '../repositories/companies';
import { assertNotDeleting, assertVisible, loadCompany } from './company-guards';

function toPolicies(company: CompanyRow, row: CompanyPolicyRow | null): CompanyPolicies {
  return {
    redaction: row?.redaction ?? 'off',
    keepOriginal: row?.keepOriginal ?? false,
    encryption: company.encryption,
    retention: {
      recordingsDays: row?.recordingsDays ?? null,
      chatsDays: row?.chatsDays ?? null,
      auditDays: row?.auditDays ?? null,
    },
  };
}

/** A switch the company's state does not allow: refused, naming the field, rather than stored and ignored. */
const refused = (field: 'encryption' | 'keepOriginal', message: string) =>
  conflict(message, [{ field: `body.${field}`, message }]);

/**
 * A company's data policies: HOST_ADMIN sets them, the company's ADMIN reads them.
 * Encryption at rest can be turned on (never off again: 409 saying why), and only while a master
 * key is configured (409 naming ENCRYPTION_MASTER_KEY otherwise): every service that encrypts reads
 * the same variable as this one, so without it each upload of the company would fail instead.
 * Keeping unredacted originals needs encryption on in the same body (409 otherwise): the
 * transcription service stores them only encrypted under the company's data key, which exists
 * only while encryption is on.
 */
export class PolicyService {
  private readonly masterKeyConfigured: boolean;

  constructor(private readonly ctx: ServiceContext<ServiceContext['config'] & EncryptionConfig>) {
    // Reading the master key validates it, as in the services that encrypt: a bad one stops the start.
    this.masterKeyConfigured = masterKeysFrom(ctx.config).configured;
  }

  async get(identity: Identity, companyId: string): Promise<CompanyPolicies> {
    assertVisible(identity, companyId);
    const company = await loadCompany(this.ctx.db, companyId);
    return toPolicies(company, await repo.findPolicies(this.ctx.db, companyId));
  }

  async save(identity: Identity, companyId: string, body: CompanyPolicies): Promise<CompanyPolicies> {
    assertVisible(identity, companyId);
    return this.ctx.transact(async (tx, emit) => {
      let company = await findCompanyForUpdate(tx, companyId);
      if (!company) throw notFound('Company');
      assertNotDeleting(company);
      // Encryption at rest: on is allowed; off is refused once on, since data is then
      // stored encrypted in the services and the tenant cannot see when the last of it is gone.
      if (!body.encryption && company.encryption) throw refused('encryption', POLICY_MESSAGES.encryptionIrreversible);
      if (body.encryption && !company.encryption && !this.masterKeyConfigured)
        throw refused('encryption', MASTER_KEY_MESSAGES.cannotTurnOn);
      if (body.keepOriginal && !body.encryption)
        throw refused('keepOriginal', POLICY_MESSAGES.keepOriginalNeedsEncryption);
      const before = toPolicies(company, await repo.findPolicies(tx, companyId));
      if (body.encryption && !company.encryption) company = await updateCompany(tx, companyId, { encryption: true });
      const { retention, redaction, keepOriginal } = body;
      await repo.savePolicies(tx, companyId, { redaction, keepOriginal, ...retention });
      const after = toPolicies(company, await repo.findPolicies(tx, companyId));
      if (JSON.stringify(before) !== JSON.stringify(after)) {
        emit({
          type: 'company.policies_changed',
          companyId,
          actor: actorOf(identity),
          data: { id: companyId, before, after },
        });
      }
      return after;
    });
  }
}
