import { onCompanyDeleted } from '@earshot/kit';
import { deleteCompanyUsers } from '../repositories/company-removal';

/**
 * A deleted company's users go. Their sessions were already ended by the company.deleted handler
 * registered before this one (in the same transaction): every verifier refuses their tokens.
 */
export const companyRemoval = onCompanyDeleted('auth', (tx, companyId) => deleteCompanyUsers(tx, companyId));
