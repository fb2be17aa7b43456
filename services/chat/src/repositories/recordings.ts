import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { clients, recordings } from '../db/schema';

export interface Recording {
  fileId: string;
  companyId: string;
  fileName: string;
}

/**
 * Which recordings a caller may see: a company's (null: every company's) and, in a b2c company,
 * only those `owner` uploaded (null: every member's).
 */
export interface RecordingScope {
  companyId: string | null;
  owner: string | null;
}

const columns = { fileId: recordings.fileId, companyId: recordings.companyId, fileName: recordings.fileName };
const inScope = ({ companyId, owner }: RecordingScope) =>
  and(
    isNotNull(recordings.completedAt),
    companyId ? eq(recordings.companyId, companyId) : undefined,
    owner ? eq(recordings.uploadedBy, owner) : undefined,
  );

/** The recordings an owner uploaded, for a search over segments (which have no uploader). */
export const ownedBy = (owner: string) => sql`select file_id from chat.recordings where uploaded_by = ${owner}`;

/** A completed transcript's recording: its name and when it completed (a later run replaces both). */
export async function completed(
  tx: Db,
  row: { fileId: string; companyId: string; fileName: string; completedAt: Date },
): Promise<void> {
  await tx
    .insert(recordings)
    .values(row)
    .onConflictDoUpdate({
      target: recordings.fileId,
      set: { companyId: row.companyId, fileName: row.fileName, completedAt: row.completedAt },
    });
}

/** Who uploaded a recording (file.uploaded comes before its transcript completes). */
export async function uploaded(
  tx: Db,
  row: { fileId: string; companyId: string; uploadedBy: string | null },
): Promise<void> {
  await tx
    .insert(recordings)
    .values(row)
    .onConflictDoUpdate({ target: recordings.fileId, set: { uploadedBy: row.uploadedBy } });
}

/** Links (or unlinks) a recording's client; a link may come before the transcript completes. */
export async function linkClient(
  tx: Db,
  row: { fileId: string; companyId: string; clientId: string | null },
): Promise<void> {
  await tx
    .insert(recordings)
    .values(row)
    .onConflictDoUpdate({ target: recordings.fileId, set: { clientId: row.clientId } });
}

export async function remove(tx: Db, fileId: string): Promise<void> {
  await tx.delete(recordings).where(eq(recordings.fileId, fileId));
}

export async function saveClient(tx: Db, row: { id: string; companyId: string; name: string }): Promise<void> {
  await tx
    .insert(clients)
    .values(row)
    .onConflictDoUpdate({ target: clients.id, set: { name: row.name } });
}

export async function removeClient(tx: Db, id: string): Promise<void> {
  await tx.delete(clients).where(eq(clients.id, id));
}

/** A completed recording the scope may see. */
export async function find(db: Db, fileId: string, scope: RecordingScope): Promise<Recording | null> {
  const [row] = await db
    .select(columns)
    .from(recordings)
    .where(and(eq(recordings.fileId, fileId), inScope(scope)))
    .limit(1);
  return row ?? null;
}

/** The newest completed recording of the scope: "the last call". */
export async function latest(db: Db, scope: RecordingScope): Promise<Recording | null> {
  const [row] = await db
    .select(columns)
    .from(recordings)
    .where(inScope(scope))
    .orderBy(desc(recordings.completedAt), desc(recordings.fileId))
    .limit(1);
  return row ?? null;
}

/**
 * Recordings a question names, newest first: by file name, whole ("call.wav") or without its
 * extension when that is not a plain word ("pricing-call", "call 2": "call" or "meeting" alone
 * are words people use for any recording), or by their client's name (at least `minClient`
 * characters). The caller checks word boundaries; this finds the names that occur in the text.
 */
export async function namedIn(
  db: Db,
  question: string,
  { companyId, owner }: RecordingScope,
  minClient: number,
  limit: number,
): Promise<(Recording & { named: string })[]> {
  const text = question.toLowerCase();
  const stem = sql.raw(String.raw`lower(regexp_replace(r.file_name, '\.[^.]*$', ''))`);
  const namedStem = sql`(${stem} ~ '[^[:alpha:]]' and length(${stem}) >= 3 and strpos(${text}, ${stem}) > 0)`;
  const result = (await db.execute(sql`
    select r.file_id, r.company_id, r.file_name,
      case when strpos(${text}, lower(r.file_name)) > 0 then r.file_name
           when ${namedStem} then ${stem}
           else c.name end as named
    from chat.recordings r left join chat.clients c on c.id = r.client_id
    where r.completed_at is not null ${companyId ? sql`and r.company_id = ${companyId}` : sql``}
      ${owner ? sql`and r.uploaded_by = ${owner}` : sql``}
      and r.file_name <> ''
      and (strpos(${text}, lower(r.file_name)) > 0
        or ${namedStem}
        or (length(c.name) >= ${minClient} and strpos(${text}, lower(c.name)) > 0))
    order by r.completed_at desc, r.file_id
    limit ${limit}`)) as unknown as {
    rows: { file_id: string; company_id: string; file_name: string; named: string }[];
  };
  return result.rows.map((r) => ({
    fileId: r.file_id,
    companyId: r.company_id,
    fileName: r.file_name,
    named: r.named,
  }));
}
