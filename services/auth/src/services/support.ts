import type { SupportContactDto } from '@earshot/contracts';
import type { Db, Identity } from '@earshot/kit';
import { supportContacts } from '../repositories/support';

/** The support page's contacts for the caller: the administrators of their own company. */
export async function supportContactsFor(db: Db, identity: Identity): Promise<SupportContactDto[]> {
  const rows = await supportContacts(db, identity.companyId);
  return rows.map((c) => ({ name: `${c.firstName} ${c.lastName}`.trim(), email: c.email }));
}
