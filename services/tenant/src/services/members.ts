import type { EventOf } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import { removeMember, removeName, upsertMember, upsertName } from '../repositories/members';

/** Keeps the company_members projection (company, role, monthly cap) and people's names from the auth service's user events. */
export async function applyUserEvent(
  tx: Db,
  event: EventOf<'user.created' | 'user.updated' | 'user.deleted'>,
): Promise<void> {
  const after = event.type === 'user.deleted' ? null : (event.data.after ?? null);
  if (after?.companyId)
    await upsertMember(tx, event.data.id, {
      companyId: after.companyId,
      role: after.role,
      monthlyCredits: after.monthlyCredits,
    });
  else await removeMember(tx, event.data.id);
  if (after)
    await upsertName(tx, {
      userId: event.data.id,
      companyId: after.companyId,
      email: after.email,
      firstName: after.firstName,
      lastName: after.lastName,
    });
  else await removeName(tx, event.data.id);
}
