import { and, asc, count, desc, eq, getTableColumns, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { files, fileTags, type FileRow, type NewFileRow } from '../db/schema';

/** A file row with its tags, sorted: what the list and the file answer carry. */
export type FileWithTags = FileRow & { tags: string[] };

/** What the list is narrowed to; `companyId` null is every company (a HOST_ADMIN). */
export interface FileFilter {
  companyId: string | null;
  /** A b2c member's own files only (see companyTypes.ownerScope). */
  owner: string | null;
  clientId?: string;
  tag?: string;
  /** Uploaded at or after. */
  from?: Date;
  /** Uploaded before. */
  before?: Date;
  speaker?: string;
  status?: string;
  language?: string;
}

/** Only `owner`'s files when there is one (a member of a b2c company sees their own alone). */
const ownedBy = (owner: string | null | undefined) => (owner ? eq(files.uploadedBy, owner) : undefined);

const withTags = {
  ...getTableColumns(files),
  // Spelled out: drizzle leaves columns of a one-table select unqualified, which the subquery would misread.
  tags: sql<string[]>`array(select t.tag from ${fileTags} t where t.file_id = "files"."id" order by t.tag collate "C")`,
};

/** The files carrying `tag`, read from the (company, tag) range of file_tags' key. */
function taggedWith(tag: string, companyId: string | null): SQL {
  const tagged = and(companyId ? eq(fileTags.companyId, companyId) : undefined, eq(fileTags.tag, tag));
  return sql`${files.id} in (select ${fileTags.fileId} from ${fileTags} where ${tagged})`;
}

function filterWhere(filter: FileFilter): SQL | undefined {
  return and(
    filter.companyId ? eq(files.companyId, filter.companyId) : undefined,
    ownedBy(filter.owner),
    filter.clientId ? eq(files.clientId, filter.clientId) : undefined,
    filter.tag ? taggedWith(filter.tag, filter.companyId) : undefined,
    filter.from ? gte(files.uploadedAt, filter.from) : undefined,
    filter.before ? lt(files.uploadedAt, filter.before) : undefined,
    filter.speaker
      ? sql`exists (select 1 from unnest(${files.speakers}) as s(name) where lower(s.name) = lower(${filter.speaker}))`
      : undefined,
    filter.status ? eq(files.transcriptionStatus, filter.status) : undefined,
    filter.language ? eq(files.language, filter.language) : undefined,
  );
}

/** Files matching `filter`, newest first, one page, and how many match in all. */
export async function listFiles(
  db: Db,
  filter: FileFilter,
  page: number,
  pageSize: number,
): Promise<{ rows: FileWithTags[]; total: number }> {
  const where = filterWhere(filter);
  const rows = await db
    .select(withTags)
    .from(files)
    .where(where)
    .orderBy(desc(files.uploadedAt), desc(files.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const [totals] = await db.select({ total: count() }).from(files).where(where);
  return { rows, total: Number(totals?.total ?? 0) };
}

/** One file, only when it belongs to `companyId` (any company for `null`) and, when given, to `owner`. */
export async function findFile(
  db: Db,
  id: string,
  companyId: string | null,
  owner?: string | null,
): Promise<FileWithTags | undefined> {
  const where = and(eq(files.id, id), companyId ? eq(files.companyId, companyId) : undefined, ownedBy(owner));
  const [row] = await db.select(withTags).from(files).where(where).limit(1);
  return row;
}

/** As findFile, the row locked until the transaction ends: one change of its tags at a time. */
export async function lockFile(
  db: Db,
  id: string,
  companyId: string | null,
  owner: string | null,
): Promise<FileWithTags | undefined> {
  const where = and(eq(files.id, id), companyId ? eq(files.companyId, companyId) : undefined, ownedBy(owner));
  const [row] = await db.select(withTags).from(files).where(where).for('update').limit(1);
  return row;
}

/** Locks the rows of the files that carry `tag` in the company (in id order, so lockers never deadlock). */
export async function lockTagged(db: Db, companyId: string, tag: string): Promise<void> {
  await db.select({ id: files.id }).from(files).where(taggedWith(tag, companyId)).orderBy(files.id).for('update');
}

export async function findFileByKey(
  db: Db,
  storageKey: string,
  companyId: string | null,
  owner?: string | null,
): Promise<FileRow | undefined> {
  const where = and(
    eq(files.storageKey, storageKey),
    companyId ? eq(files.companyId, companyId) : undefined,
    ownedBy(owner),
  );
  const [row] = await db.select().from(files).where(where).limit(1);
  return row;
}

export async function insertFile(db: Db, row: NewFileRow): Promise<FileRow> {
  const [created] = await db.insert(files).values(row).returning();
  return created!;
}

/** Bytes the company's files take. */
export async function usedStorage(db: Db, companyId: string): Promise<number> {
  const [row] = await db
    .select({ used: sql<string>`coalesce(sum(${files.size}), 0)` })
    .from(files)
    .where(eq(files.companyId, companyId));
  return Number(row?.used ?? 0);
}

const byId = (id: string, companyId: string | null) =>
  companyId ? and(eq(files.id, id), eq(files.companyId, companyId)) : eq(files.id, id);

export async function setTranscriptionStatus(
  db: Db,
  id: string,
  companyId: string | null,
  status: string,
  error: string | null,
): Promise<void> {
  await db.update(files).set({ transcriptionStatus: status, transcriptionError: error }).where(byId(id, companyId));
}

export async function deleteFile(db: Db, id: string, companyId: string | null): Promise<FileRow | undefined> {
  const [row] = await db.delete(files).where(byId(id, companyId)).returning();
  return row;
}

export async function setClient(db: Db, id: string, companyId: string | null, clientId: string | null): Promise<void> {
  await db.update(files).set({ clientId }).where(byId(id, companyId));
}

export async function setSize(db: Db, id: string, companyId: string | null, size: number): Promise<void> {
  await db.update(files).set({ size }).where(byId(id, companyId));
}

export async function setSpeakers(db: Db, id: string, companyId: string | null, speakers: string[]): Promise<void> {
  await db.update(files).set({ speakers }).where(byId(id, companyId));
}

/** Replaces a file's tags: `before` is what it has (read under the file's lock), `after` what it gets. */
export async function replaceTags(
  db: Db,
  file: { id: string; companyId: string },
  before: readonly string[],
  after: readonly string[],
): Promise<void> {
  const gone = before.filter((tag) => !after.includes(tag));
  const added = after.filter((tag) => !before.includes(tag));
  if (gone.length > 0) {
    await db
      .delete(fileTags)
      .where(and(eq(fileTags.companyId, file.companyId), inArray(fileTags.tag, gone), eq(fileTags.fileId, file.id)));
  }
  if (added.length > 0) {
    await db.insert(fileTags).values(added.map((tag) => ({ companyId: file.companyId, tag, fileId: file.id })));
  }
}

/** Storage keys of a company's recordings, oldest first (the background encryption pass walks them). */
export async function companyStorageKeys(db: Db, companyId: string): Promise<string[]> {
  const rows = await db
    .select({ key: files.storageKey })
    .from(files)
    .where(eq(files.companyId, companyId))
    .orderBy(asc(files.uploadedAt), asc(files.id));
  return rows.map((row) => row.key);
}
