import { onCompanyDeleted, type CompanyKeyRing, type ObjectStorage } from '@earshot/kit';
import { deleteCompanyChats } from '../repositories/company-removal';
import * as gptsRepo from '../repositories/custom-gpts';

/**
 * A deleted company's conversations, messages, copies of its transcripts, recordings and clients,
 * and its custom GPTs with their files, chunks, vectors and stored originals go.
 */
export const companyRemoval = (storage: ObjectStorage, keys: CompanyKeyRing) =>
  onCompanyDeleted('chat', async (tx, companyId, emit) => {
    // Crypto-shredding first: once chat's data key is gone, no copy of the company's
    // sealed text or encrypted knowledge file (a backup included) can be read.
    await keys.destroy(tx, companyId, emit);
    await deleteCompanyChats(tx, companyId);
    // Removing a missing object is no error: a redelivered event deletes nothing more.
    for (const { storageKey } of await gptsRepo.removeCompany(tx, companyId)) await storage.delete(storageKey);
  });
