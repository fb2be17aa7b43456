import { and, asc, eq, getTableColumns } from 'drizzle-orm';
import { afterRow, sortKey, type Db, type PageEnd } from '@earshot/kit';
import { files, type FileRow } from '../db/schema';

/**
 * A page of the recordings about one person in one company (those a user uploaded, or those linked
 * to a client), oldest upload first, after `after`; each with its sort key.
 */
export async function filesOfPerson(
  db: Db,
  companyId: string,
  person: { uploadedBy: string } | { clientId: string },
  page: { after: PageEnd | null; limit: number },
): Promise<(FileRow & PageEnd)[]> {
  const company = eq(files.companyId, companyId);
  const whose = 'uploadedBy' in person ? eq(files.uploadedBy, person.uploadedBy) : eq(files.clientId, person.clientId);
  return db
    .select({ ...getTableColumns(files), sortKey: sortKey(files.uploadedAt) })
    .from(files)
    .where(and(company, whose, afterRow(files.uploadedAt, files.id, page.after)))
    .orderBy(asc(files.uploadedAt), asc(files.id))
    .limit(page.limit);
}

/** The same recordings locked (in id order, so two erasures never deadlock), to be deleted. */
export async function lockFilesOfPerson(
  tx: Db,
  companyId: string,
  person: { uploadedBy: string } | { clientId: string },
): Promise<FileRow[]> {
  const whose = 'uploadedBy' in person ? eq(files.uploadedBy, person.uploadedBy) : eq(files.clientId, person.clientId);
  return tx
    .select()
    .from(files)
    .where(and(eq(files.companyId, companyId), whose))
    .orderBy(asc(files.id))
    .for('update');
}

/** Recordings kept under the company without the person: the uploader, or the client link, cleared; how many. */
export async function forgetPerson(
  tx: Db,
  companyId: string,
  person: { uploadedBy: string } | { clientId: string },
): Promise<number> {
  const [whose, cleared] =
    'uploadedBy' in person
      ? [eq(files.uploadedBy, person.uploadedBy), { uploadedBy: null }]
      : [eq(files.clientId, person.clientId), { clientId: null }];
  return (
    await tx
      .update(files)
      .set(cleared)
      .where(and(eq(files.companyId, companyId), whose))
      .returning({ id: files.id })
  ).length;
}
