import { onCompanyDeleted, type CompanyKeyRing, type ObjectStorage } from '@earshot/kit';
import { deleteCompanyFiles } from '../repositories/company-removal';

/**
 * A deleted company's files go, rows and stored audio. Objects are removed before the transaction
 * commits, so a failed removal is retried with the event (removing a missing object is a no-op).
 * No file.deleted per file: every service removes the company's data on company.deleted itself.
 */
export function companyRemoval(storage: ObjectStorage, keys?: CompanyKeyRing) {
  return onCompanyDeleted('file', async (tx, companyId, emit) => {
    // Crypto-shredding first: once the data key is gone, no copy of the audio decrypts.
    await keys?.destroy(tx, companyId, emit);
    for (const key of await deleteCompanyFiles(tx, companyId)) await storage.delete(key);
  });
}
