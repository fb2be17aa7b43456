import { onCompanyDeleted } from '@earshot/kit';
import { deleteCompanyPrompts } from '../repositories/company-removal';
import { deleteCompanyDashboards } from '../repositories/dashboards';

/** A deleted company's analysis patterns, its own prompts and its dashboards go; shared and global prompts stay. */
export const companyRemoval = onCompanyDeleted('prompt', async (tx, companyId) => {
  await deleteCompanyDashboards(tx, companyId);
  await deleteCompanyPrompts(tx, companyId);
});
