import { onCompanyDeleted } from '@earshot/kit';
import { deleteCompanyPrompts } from '../repositories/company-removal';

/** A deleted company's analysis patterns and its own prompts go; shared and global prompts stay. */
export const companyRemoval = onCompanyDeleted('prompt', (tx, companyId) => deleteCompanyPrompts(tx, companyId));
