import type { Envelope } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import { removeMember, upsertMember } from '../repositories/members';

interface UserChange {
  id: string;
  after?: { companyId?: string | null } | null;
}

/** Keeps the company_members projection from the auth service's user events. */
export async function applyUserEvent(tx: Db, envelope: Envelope): Promise<void> {
  if (!['user.created', 'user.updated', 'user.deleted'].includes(envelope.type)) return;
  const data = envelope.data as unknown as UserChange;
  const companyId = envelope.type === 'user.deleted' ? null : data.after?.companyId ?? null;
  if (companyId) await upsertMember(tx, data.id, companyId);
  else await removeMember(tx, data.id);
}
