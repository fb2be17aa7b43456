import { COMPANY_DATA_SERVICES, isId, type EventOf } from '@earshot/contracts';
import { on, onCompanyDeleted, type Db, type HandlerSpec, type ObjectStorage } from '@earshot/kit';
import * as repo from '../repositories/companies';
import { forgetReports, recordReport, removeCompanyData } from '../repositories/removal';
import { brandingKeysOf } from './branding';

/**
 * Deleting a company, the tenant service's two parts (README: "Deleting a company"):
 * - like every service, on company.deleted it removes what it holds for the company (clients, the
 *   member, recording and storage projections, the uploaded images) and reports company.data_removed;
 * - it records every service's report, and once all of COMPANY_DATA_SERVICES have reported, it
 *   removes the company row. Until then the company lists as `deleting` with the services pending.
 */
export function companyRemovalHandlers(storage: ObjectStorage): HandlerSpec[] {
  return [
    onCompanyDeleted('tenant', async (tx, companyId) => {
      await removeCompanyData(tx, companyId);
      const row = await repo.findCompany(tx, companyId);
      // Before commit: a failed removal is retried with the event (removing a missing object is a no-op).
      for (const key of row ? brandingKeysOf(row) : []) await storage.delete(key);
    }),
    on('company.data_removed', (event, tx) => applyDataRemoved(tx, event)),
  ];
}

async function applyDataRemoved(tx: Db, event: EventOf<'company.data_removed'>): Promise<void> {
  const { companyId, service } = event.data;
  if (!isId(companyId)) return;
  const reported = await recordReport(tx, companyId, service);
  if (!COMPANY_DATA_SERVICES.every((s) => reported.includes(s))) return;
  const row = await repo.findCompanyForUpdate(tx, companyId);
  if (row?.status !== 'deleting') return;
  await repo.deleteCompany(tx, companyId);
  await forgetReports(tx, companyId);
}
