import { companyScope, conflict, notFound, type Db, type Identity } from '@earshot/kit';
import type { CompanyRow } from '../db/schema';
import { findCompany } from '../repositories/companies';

// The checks every company-scoped service makes before it reads or changes a company's data. They
// live apart from companies.ts so that holds.ts (which companies.ts uses to refuse deleting a held
// company) can use them without the two modules importing each other.

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
