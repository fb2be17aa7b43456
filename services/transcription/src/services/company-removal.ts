import { onCompanyDeleted, type CompanyKeyRing } from '@earshot/kit';
import { deleteCompanyTranscripts } from '../repositories/company-removal';

/**
 * A deleted company's transcripts, jobs and client projection go. Crypto-shredding first (issue
 * 25): once its words' data key is gone, no copy of its sealed words (a backup included) opens.
 */
export function companyRemoval(keys: CompanyKeyRing) {
  return onCompanyDeleted('transcription', async (tx, companyId, emit) => {
    await keys.destroy(tx, companyId, emit);
    await deleteCompanyTranscripts(tx, companyId);
  });
}
