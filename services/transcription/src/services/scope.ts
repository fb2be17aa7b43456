import { companyScope, type Db, type Identity } from '@earshot/kit';
import type { Scope } from '../repositories/transcripts';
import { companyTypes } from './company-types';

/**
 * What the caller may see (see Scope). Read before any transaction: PGlite's one connection would
 * wait on itself inside one.
 */
export async function scopeOf(db: Db, identity: Identity, requestedCompany?: string): Promise<Scope> {
  return { companyId: companyScope(identity, requestedCompany), owner: await companyTypes.ownerScope(db, identity) };
}
