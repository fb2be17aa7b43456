import {
  ENCRYPTING_SERVICES,
  isId,
  type CompanyEncryptionProgress,
  type EventOf,
  type ServiceEncryptionProgress,
} from '@earshot/contracts';
import { masterKeysFrom, type Db, type EncryptionConfig, type Identity, type ServiceContext } from '@earshot/kit';
import * as repo from '../repositories/encryption-progress';
import { assertVisible, loadCompany } from './company-guards';

/** Projects company.encryption_progressed: each service's figures for the company, the newest event's. */
export async function applyEncryptionProgressed(
  tx: Db,
  event: EventOf<'company.encryption_progressed'>,
): Promise<void> {
  const { companyId, service, state, done, total } = event.data;
  if (!isId(companyId)) return;
  await repo.recordProgress(tx, { companyId, service, state, done, total, updatedAt: new Date(event.occurredAt) });
}

/**
 * How far the services have encrypted a company's existing data since encryption was turned on
 *, for the HOST_ADMIN and the company's ADMIN: every service that encrypts is listed,
 * `idle` until its pass reports; a service this list does not know yet is listed after them.
 */
export class EncryptionProgressService {
  private readonly masterKeyConfigured: boolean;

  constructor(private readonly ctx: ServiceContext<ServiceContext['config'] & EncryptionConfig>) {
    this.masterKeyConfigured = masterKeysFrom(ctx.config).configured;
  }

  async get(identity: Identity, companyId: string): Promise<CompanyEncryptionProgress> {
    assertVisible(identity, companyId);
    const company = await loadCompany(this.ctx.db, companyId);
    const rows = new Map((await repo.listProgress(this.ctx.db, companyId)).map((row) => [row.service, row]));
    const names = [
      ...ENCRYPTING_SERVICES,
      ...[...rows.keys()].filter((name) => !(ENCRYPTING_SERVICES as readonly string[]).includes(name)).sort(),
    ];
    const services = names.map((service): ServiceEncryptionProgress => {
      const row = rows.get(service);
      return row
        ? { service, state: row.state, done: row.done, total: row.total, updatedAt: row.updatedAt.toISOString() }
        : { service, state: 'idle', done: 0, total: 0, updatedAt: null };
    });
    return { encryption: company.encryption, masterKeyConfigured: this.masterKeyConfigured, services };
  }
}
