import { and, asc, eq, getTableColumns, or } from 'drizzle-orm';
import { afterRow, sortKey, type Db, type PageEnd } from '@earshot/kit';
import { recordings, tasks, type TaskRow } from '../db/schema';

type Person = { userId: string } | { clientId: string };

/** The tasks about a person in their company: a user's (made or given to them), or those linked to a client. */
const about = (companyId: string, person: Person) =>
  and(
    eq(tasks.companyId, companyId),
    'userId' in person
      ? or(eq(tasks.createdBy, person.userId), eq(tasks.assigneeId, person.userId))
      : eq(tasks.clientId, person.clientId),
  );

/** A page of them, oldest first, after `after`; each with its sort key. */
export async function tasksOfPerson(
  db: Db,
  companyId: string,
  person: Person,
  page: { after: PageEnd | null; limit: number },
): Promise<(TaskRow & PageEnd)[]> {
  return db
    .select({ ...getTableColumns(tasks), sortKey: sortKey(tasks.createdAt) })
    .from(tasks)
    .where(and(about(companyId, person), afterRow(tasks.createdAt, tasks.id, page.after)))
    .orderBy(asc(tasks.createdAt), asc(tasks.id))
    .limit(page.limit);
}

/** The same, locked in id order for their erasure. */
export async function lockTasksOfPerson(tx: Db, companyId: string, person: Person): Promise<TaskRow[]> {
  return tx.select().from(tasks).where(about(companyId, person)).orderBy(asc(tasks.id)).for('update');
}

/** The copies of a user's recordings (the calendar's) kept under their company without them as uploader. */
export async function forgetUploader(tx: Db, companyId: string, userId: string): Promise<void> {
  await tx
    .update(recordings)
    .set({ uploadedBy: null })
    .where(and(eq(recordings.companyId, companyId), eq(recordings.uploadedBy, userId)));
}
