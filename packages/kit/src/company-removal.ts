import { SYSTEM_ACTOR, isId, type CompanyDataService } from '@earshot/contracts';
import type { Db } from './db/database';
import { on, type Emit, type HandlerSpec } from './bus/handlers';

/**
 * A service's part of deleting a company: on company.deleted, `remove` deletes what the service
 * holds for that company (in the handler's transaction; objects in storage before it commits, so a
 * failure is retried with the event), then the service reports company.data_removed, once (the
 * kit applies each event once). The tenant service removes the company when every service of
 * COMPANY_DATA_SERVICES has reported.
 */
export function onCompanyDeleted(
  service: CompanyDataService,
  remove: (tx: Db, companyId: string, emit: Emit) => Promise<void>,
): HandlerSpec {
  return on('company.deleted', async (event, tx, emit) => {
    const companyId = event.data.id;
    if (!isId(companyId)) return;
    await remove(tx, companyId, emit);
    emit({ type: 'company.data_removed', companyId, actor: event.actor ?? SYSTEM_ACTOR, data: { companyId, service } });
  });
}
