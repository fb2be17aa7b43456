import { onCompanyDeleted, type CompanyKeyRing } from '@earshot/kit';
import { deleteCompanyPrompts } from '../repositories/company-removal';
import { deleteCompanyDashboards } from '../repositories/dashboards';

/** A deleted company's analysis patterns, its own prompts and its dashboards go; shared and global prompts stay. */
export const companyRemoval = (keys: CompanyKeyRing) =>
  onCompanyDeleted('prompt', async (tx, companyId, emit) => {
    // Crypto-shredding first: once prompt's data key is gone, no copy of the company's
    // sealed transcript text (a backup included) can be read.
    await keys.destroy(tx, companyId, emit);
    await deleteCompanyDashboards(tx, companyId);
    await deleteCompanyPrompts(tx, companyId);
  });
