import { companyScope, conflict, notFound, type Db, type Identity } from '@earshot/kit';
import type { CompanyRow } from '../db/schema';
import { findCompany } from '../repositories/directory';

// The checks every billing route makes before it reads or changes a company's credits, against
// this service's read model of the tenant's companies: the answers are the tenant's own.

/** A company administrator sees only their own company; another company is simply not found. */
export function assertVisible(who: Identity, id: string): void {
  if (companyScope(who, id) !== id) throw notFound('Company');
}

/** A company that is being deleted takes no more changes. */
export function assertNotDeleting(row: CompanyRow): void {
  if (row.status === 'deleting') throw conflict('This company is being deleted');
}

/** A company by id, or 404. */
export async function loadCompany(db: Db, id: string): Promise<CompanyRow> {
  const row = await findCompany(db, id);
  if (!row) throw notFound('Company');
  return row;
}
