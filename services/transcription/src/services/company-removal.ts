import { onCompanyDeleted } from '@earshot/kit';
import { deleteCompanyTranscripts } from '../repositories/company-removal';

/** A deleted company's transcripts, jobs and client projection go. */
export const companyRemoval = onCompanyDeleted('transcription', (tx, companyId) => deleteCompanyTranscripts(tx, companyId));
