import { isId, type EventOf } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import * as peopleRepo from '../repositories/people';

/**
 * user.created / user.updated: the member's name (else their e-mail) in their company, offered
 * when naming a speaker. A user without a company (a platform administrator) is nobody's member.
 */
export async function applyUserSaved(tx: Db, event: EventOf<'user.created' | 'user.updated'>): Promise<void> {
  const { id, after } = event.data;
  if (!isId(id) || !after) return;
  if (!isId(after.companyId)) {
    await peopleRepo.removeMember(tx, id);
    return;
  }
  const name = `${after.firstName} ${after.lastName}`.trim() || after.email;
  await peopleRepo.upsertMember(tx, { userId: id, companyId: after.companyId, name });
}

export async function applyUserDeleted(tx: Db, event: EventOf<'user.deleted'>): Promise<void> {
  if (isId(event.data.id)) await peopleRepo.removeMember(tx, event.data.id);
}
