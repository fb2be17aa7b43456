import type { EventOf } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import * as directory from '../repositories/directory';

/** What billing keeps of a company: enough to check it, and to name it on CSVs and statements. */
export interface CompanyFacts {
  id: string;
  name: string;
  code: string;
  status: string;
}

/** Keeps the companies read model from the tenant's company.created and company.updated. */
export async function applyCompanyEvent(tx: Db, event: EventOf<'company.created' | 'company.updated'>): Promise<void> {
  const after = event.data.after;
  if (!after) return;
  await directory.upsertCompany(tx, { id: event.data.id, name: after.name, code: after.code, status: after.status });
}

/**
 * Keeps the people read model (company, role, monthly cap, name) from the auth service's user
 * events: caps limit a person's spend and alert them, names say who spent.
 */
export async function applyUserEvent(
  tx: Db,
  event: EventOf<'user.created' | 'user.updated' | 'user.deleted'>,
): Promise<void> {
  const after = event.type === 'user.deleted' ? null : (event.data.after ?? null);
  if (!after) return directory.removePerson(tx, event.data.id);
  await directory.upsertPerson(tx, {
    userId: event.data.id,
    companyId: after.companyId,
    role: after.role,
    monthlyCredits: after.monthlyCredits,
    firstName: after.firstName,
    lastName: after.lastName,
  });
}
