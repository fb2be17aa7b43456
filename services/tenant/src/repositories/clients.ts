import { and, asc, count, desc, eq, ilike, isNotNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { clientRecordings, clients, type ClientRecordingRow, type ClientRow, type NewClientRow } from '../db/schema';
import { contains } from './companies';

/** Where a client may be looked up: one company, or every company (`null`, a platform administrator). */
const inCompany = (companyId: string | null): SQL | undefined =>
  companyId ? eq(clients.companyId, companyId) : undefined;

export async function listClients(
  db: Db,
  companyId: string | null,
  search: string | undefined,
  page: number,
  pageSize: number,
) {
  const pattern = search ? contains(search) : undefined;
  const condition = and(
    inCompany(companyId),
    pattern
      ? or(
          ilike(clients.name, pattern),
          ilike(clients.organisation, pattern),
          ilike(clients.email, pattern),
          ilike(clients.phone, pattern),
          ilike(clients.externalId, pattern),
        )
      : undefined,
  );
  const [rows, [totals]] = await Promise.all([
    db
      .select()
      .from(clients)
      .where(condition)
      .orderBy(asc(sql`lower(${clients.name})`), asc(clients.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(clients).where(condition),
  ]);
  return { rows, total: totals?.total ?? 0 };
}

export async function clientDropdown(db: Db, companyId: string | null) {
  return db
    .select({ id: clients.id, name: clients.name })
    .from(clients)
    .where(inCompany(companyId))
    .orderBy(asc(sql`lower(${clients.name})`), asc(clients.id));
}

export async function findClient(db: Db, id: string, companyId: string | null): Promise<ClientRow | undefined> {
  const [row] = await db
    .select()
    .from(clients)
    .where(and(eq(clients.id, id), inCompany(companyId)));
  return row;
}

/** Locks the row for the rest of the transaction (concurrent changes apply one after the other). */
export async function findClientForUpdate(
  tx: Db,
  id: string,
  companyId: string | null,
): Promise<ClientRow | undefined> {
  const [row] = await tx
    .select()
    .from(clients)
    .where(and(eq(clients.id, id), inCompany(companyId)))
    .for('update');
  return row;
}

export async function externalIdTaken(
  db: Db,
  companyId: string,
  externalId: string,
  exceptId?: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(
      and(
        eq(clients.companyId, companyId),
        eq(clients.externalId, externalId),
        exceptId ? ne(clients.id, exceptId) : undefined,
      ),
    );
  return row !== undefined;
}

export async function insertClient(tx: Db, values: NewClientRow): Promise<ClientRow> {
  const [row] = await tx.insert(clients).values(values).returning();
  return row!;
}

export async function updateClient(tx: Db, id: string, patch: Partial<NewClientRow>): Promise<ClientRow> {
  const [row] = await tx
    .update(clients)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(clients.id, id))
    .returning();
  return row!;
}

export async function deleteClient(tx: Db, id: string): Promise<void> {
  await tx.delete(clients).where(eq(clients.id, id));
}

/* The recordings projection (from file.* and transcript.* events). */

export async function recordingsOf(db: Db, clientId: string): Promise<ClientRecordingRow[]> {
  return db
    .select()
    .from(clientRecordings)
    .where(eq(clientRecordings.clientId, clientId))
    .orderBy(desc(clientRecordings.uploadedAt), desc(clientRecordings.fileId));
}

type RecordingFacts = Partial<Pick<ClientRecordingRow, 'clientId' | 'name' | 'status' | 'duration' | 'uploadedAt'>>;

/**
 * Sets some facts of a recording, creating its row when it is the first event heard of it: events
 * of the file and transcription topics may arrive in either order.
 */
export async function upsertRecording(tx: Db, fileId: string, companyId: string, facts: RecordingFacts): Promise<void> {
  await tx
    .insert(clientRecordings)
    .values({ fileId, companyId, ...facts })
    .onConflictDoUpdate({ target: clientRecordings.fileId, set: facts });
}

/** The upload's facts; the client it was uploaded for unless a link event already set one. */
export async function recordUpload(
  tx: Db,
  fileId: string,
  companyId: string,
  facts: { name: string; uploadedAt: Date; clientId: string | null },
): Promise<void> {
  await tx
    .insert(clientRecordings)
    .values({ fileId, companyId, ...facts })
    .onConflictDoUpdate({
      target: clientRecordings.fileId,
      set: {
        name: facts.name,
        uploadedAt: facts.uploadedAt,
        clientId: sql`coalesce(${clientRecordings.clientId}, excluded.client_id)`,
      },
    });
}

export async function forgetRecording(tx: Db, fileId: string): Promise<void> {
  await tx.delete(clientRecordings).where(eq(clientRecordings.fileId, fileId));
}

export async function unlinkRecordings(tx: Db, clientId: string): Promise<void> {
  await tx
    .update(clientRecordings)
    .set({ clientId: null })
    .where(and(isNotNull(clientRecordings.clientId), eq(clientRecordings.clientId, clientId)));
}
