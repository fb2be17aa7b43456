import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { clients, members } from '../db/schema';
import type { Scope } from './transcripts';

export async function upsertMember(tx: Db, member: { userId: string; companyId: string; name: string }): Promise<void> {
  await tx
    .insert(members)
    .values(member)
    .onConflictDoUpdate({ target: members.userId, set: { companyId: member.companyId, name: member.name } });
}

export async function removeMember(tx: Db, userId: string): Promise<void> {
  await tx.delete(members).where(eq(members.userId, userId));
}

export async function memberName(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ name: members.name }).from(members).where(eq(members.userId, userId)).limit(1);
  return row?.name ?? null;
}

/** A company's known names of one kind; each list is bounded (a picker, not a directory). */
const LIMIT = 500;

/** With `only` (a b2c member: the other consumers of the workspace are strangers), that member alone. */
export async function memberNames(db: Db, companyId: string, only: string | null): Promise<string[]> {
  const rows = await db
    .select({ name: members.name })
    .from(members)
    .where(and(eq(members.companyId, companyId), only ? eq(members.userId, only) : undefined))
    .orderBy(members.name)
    .limit(LIMIT);
  return rows.map((r) => r.name);
}

export async function clientNames(db: Db, companyId: string): Promise<string[]> {
  const rows = await db
    .select({ name: clients.name })
    .from(clients)
    .where(and(eq(clients.companyId, companyId), sql`${clients.name} is not null`))
    .orderBy(clients.name)
    .limit(LIMIT);
  return rows.map((r) => r.name!);
}

/** Names given to speakers of the scope's transcripts (the labels the pipeline gives are left out by the caller). */
export async function speakerNames(db: Db, scope: Scope & { companyId: string }): Promise<string[]> {
  const result = (await db.execute(sql`
    select distinct s.item ->> 'label' as name
    from transcription.transcripts t, jsonb_array_elements(t.speakers) as s(item)
    where t.company_id = ${scope.companyId} ${scope.owner ? sql`and t.uploaded_by = ${scope.owner}` : sql``}
    order by 1 limit ${LIMIT * 2}`)) as unknown as { rows: { name: string | null }[] };
  return result.rows.map((r) => r.name).filter((n): n is string => Boolean(n));
}
