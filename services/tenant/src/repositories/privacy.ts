import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { clientRecordings, clients } from '../db/schema';

/** A client contact of one company, and the calls linked to it. */
export async function clientWithCalls(db: Db, companyId: string, clientId: string) {
  const [client] = await db.select().from(clients).where(and(eq(clients.companyId, companyId), eq(clients.id, clientId)));
  if (!client) return null;
  const calls = await db.select().from(clientRecordings).where(and(eq(clientRecordings.companyId, companyId), eq(clientRecordings.clientId, clientId))).orderBy(asc(clientRecordings.uploadedAt));
  return { client, calls };
}
