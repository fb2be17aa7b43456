import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { files, type FileRow } from '../db/schema';

/** The recordings about one person in one company: those a user uploaded, or those linked to a client. */
export async function filesOfPerson(db: Db, companyId: string, person: { uploadedBy: string } | { clientId: string }): Promise<FileRow[]> {
  const company = eq(files.companyId, companyId);
  const whose = 'uploadedBy' in person ? eq(files.uploadedBy, person.uploadedBy) : eq(files.clientId, person.clientId);
  return db.select().from(files).where(and(company, whose)).orderBy(asc(files.uploadedAt));
}
