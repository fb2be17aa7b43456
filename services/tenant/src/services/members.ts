import type { EventOf } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import { removeMember, upsertMember } from '../repositories/members';

/** Keeps the company_members projection from the auth service's user events. */
export async function applyUserEvent(tx: Db, event: EventOf<'user.created' | 'user.updated' | 'user.deleted'>): Promise<void> {
  const companyId = event.type === 'user.deleted' ? null : event.data.after?.companyId ?? null;
  if (companyId) await upsertMember(tx, event.data.id, companyId);
  else await removeMember(tx, event.data.id);
}
