import { and, asc, eq, gte, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { clients, feeds, members, recordings, type MemberRow, type RecordingRow } from '../db/schema';

// ---------------------------------------------------------------- members (auth's user events)

export async function upsertMember(tx: Db, row: MemberRow): Promise<void> {
  await tx
    .insert(members)
    .values(row)
    .onConflictDoUpdate({
      target: members.id,
      set: { companyId: row.companyId, firstName: row.firstName, lastName: row.lastName, status: row.status },
    });
}

export async function removeMember(tx: Db, id: string): Promise<void> {
  await tx.delete(members).where(eq(members.id, id));
}

/** Someone of the company who is not disabled: who a task may be given to. */
export async function isCurrentMember(db: Db, id: string, companyId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: members.id })
    .from(members)
    .where(
      and(
        eq(members.id, id),
        eq(members.companyId, companyId),
        or(sql`${members.status} is null`, ne(members.status, 'disabled')),
      ),
    );
  return row !== undefined;
}

/** The company's current members (an owner: only that person), by name: the assignee picker. */
export async function currentMembers(db: Db, companyId: string, ownerId: string | null): Promise<MemberRow[]> {
  return db
    .select()
    .from(members)
    .where(
      and(
        eq(members.companyId, companyId),
        or(sql`${members.status} is null`, ne(members.status, 'disabled')),
        ownerId === null ? undefined : eq(members.id, ownerId),
      ),
    )
    .orderBy(asc(members.firstName), asc(members.lastName), asc(members.id));
}

/** Current members of the company whose full name or first name is `name` (case and spacing aside). */
export async function membersNamed(db: Db, companyId: string, name: string): Promise<string[]> {
  const wanted = name.trim().replace(/\s+/g, ' ').toLowerCase();
  const rows = await db
    .select({ id: members.id })
    .from(members)
    .where(
      and(
        eq(members.companyId, companyId),
        or(sql`${members.status} is null`, ne(members.status, 'disabled')),
        or(
          sql`lower(regexp_replace(trim(${members.firstName} || ' ' || ${members.lastName}), '\\s+', ' ', 'g')) = ${wanted}`,
          sql`lower(trim(${members.firstName})) = ${wanted}`,
        ),
      ),
    );
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------- clients (tenant's client events)

export async function upsertClient(tx: Db, id: string, companyId: string): Promise<void> {
  await tx.insert(clients).values({ id, companyId }).onConflictDoUpdate({ target: clients.id, set: { companyId } });
}

export async function removeClient(tx: Db, id: string): Promise<void> {
  await tx.delete(clients).where(eq(clients.id, id));
}

export async function isClientOf(db: Db, id: string, companyId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(eq(clients.id, id), eq(clients.companyId, companyId)));
  return row !== undefined;
}

// ---------------------------------------------------------------- recordings (file and transcription events)

export async function upsertRecording(tx: Db, row: RecordingRow): Promise<void> {
  await tx.insert(recordings).values(row).onConflictDoNothing();
}

export async function removeRecording(tx: Db, fileId: string): Promise<void> {
  await tx.delete(recordings).where(eq(recordings.fileId, fileId));
}

export async function linkRecordingClient(tx: Db, fileId: string, clientId: string | null): Promise<void> {
  await tx.update(recordings).set({ clientId }).where(eq(recordings.fileId, fileId));
}

export async function findRecording(db: Db, fileId: string, companyId: string): Promise<RecordingRow | undefined> {
  const [row] = await db
    .select()
    .from(recordings)
    .where(and(eq(recordings.fileId, fileId), eq(recordings.companyId, companyId)));
  return row;
}

/** Recordings uploaded in [from, to) (null company: every company's; an owner: only theirs). */
export async function recordingsBetween(
  db: Db,
  companyId: string | null,
  ownerId: string | null,
  from: Date,
  to: Date,
): Promise<RecordingRow[]> {
  return db
    .select()
    .from(recordings)
    .where(
      and(
        companyId === null ? undefined : eq(recordings.companyId, companyId),
        ownerId === null ? undefined : eq(recordings.uploadedBy, ownerId),
        gte(recordings.uploadedAt, from),
        lt(recordings.uploadedAt, to),
      ),
    )
    .orderBy(asc(recordings.uploadedAt), asc(recordings.fileId));
}

// ---------------------------------------------------------------- feeds

/** The person's feed secret (its hash), replacing the one before. */
export async function replaceFeed(tx: Db, userId: string, companyId: string | null, tokenHash: string): Promise<void> {
  await tx
    .insert(feeds)
    .values({ userId, companyId, tokenHash })
    .onConflictDoUpdate({ target: feeds.userId, set: { companyId, tokenHash, createdAt: new Date() } });
}

export async function feedOwner(db: Db, tokenHash: string): Promise<string | undefined> {
  const [row] = await db.select({ userId: feeds.userId }).from(feeds).where(eq(feeds.tokenHash, tokenHash));
  return row?.userId;
}

export async function removeFeed(tx: Db, userId: string): Promise<void> {
  await tx.delete(feeds).where(eq(feeds.userId, userId));
}
