import { onCompanyDeleted } from '@earshot/kit';
import { deleteCompanyChats } from '../repositories/company-removal';

/** A deleted company's conversations, messages and copies of its transcripts, recordings and clients go. */
export const companyRemoval = onCompanyDeleted('chat', (tx, companyId) => deleteCompanyChats(tx, companyId));
