import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import type { TagCount } from '@earshot/contracts';
import { files, fileTags } from '../db/schema';

/** A file a company-wide tag change touched, with its tags before the change (sorted). */
export interface TaggedFile {
  fileId: string;
  before: string[];
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** The tags of `owner`'s files alone when there is one (a b2c member's). */
const ownerFilter = (owner: string | null): SQL =>
  owner
    ? sql`and ${fileTags.fileId} in (select ${files.id} from ${files} where ${files.uploadedBy} = ${owner})`
    : sql``;

/**
 * How many files carry each tag, most used first: in one company, an index-only scan of its range
 * of file_tags' key; every company's for `null` (a HOST_ADMIN without a filter).
 */
export async function tagCounts(db: Db, companyId: string | null, owner: string | null): Promise<TagCount[]> {
  const company = companyId ? sql`${fileTags.companyId} = ${companyId}` : sql`true`;
  const result = await db.execute(sql`
    select ${fileTags.tag} as name, count(*)::int as count from ${fileTags}
    where ${company} ${ownerFilter(owner)}
    group by ${fileTags.tag} order by count desc, name`);
  return rowsOf<TagCount>(result);
}

/** The files of the company (of `owner`, when given) that carry `tag`, with all their tags. */
const affected = (companyId: string, tag: string, owner: string | null) => sql`
  affected as (
    select t.file_id as "fileId", array_agg(t.tag order by t.tag) as before from ${fileTags} t
    where t.company_id = ${companyId}
      and t.file_id in (select ${fileTags.fileId} from ${fileTags} where ${fileTags.companyId} = ${companyId} and ${fileTags.tag} = ${tag} ${ownerFilter(owner)})
    group by t.file_id)`;

/** The files of the company (of `owner`, when given) that carry `tag`, as they are. */
export async function taggedFiles(db: Db, companyId: string, owner: string | null, tag: string): Promise<TaggedFile[]> {
  return rowsOf<TaggedFile>(
    await db.execute(sql`with ${affected(companyId, tag, owner)} select "fileId", before from affected`),
  );
}

/**
 * Renames `from` to `to` on every file of the company that carries it, in one statement: a file
 * that already has `to` keeps one (that is the merge). Returns the files touched, as they were.
 */
export async function renameTag(
  db: Db,
  companyId: string,
  owner: string | null,
  from: string,
  to: string,
): Promise<TaggedFile[]> {
  const result = await db.execute(sql`
    with ${affected(companyId, from, owner)},
    moved as (
      delete from ${fileTags} where ${fileTags.companyId} = ${companyId} and ${fileTags.tag} = ${from}
        and ${fileTags.fileId} in (select "fileId" from affected)
      returning ${fileTags.fileId} as file_id),
    added as (
      insert into ${fileTags} (company_id, tag, file_id) select ${companyId}, ${to}, file_id from moved
      on conflict do nothing)
    select "fileId", before from affected`);
  return rowsOf<TaggedFile>(result);
}

/** Takes `tag` off every file of the company that carries it, in one statement; the files touched, as they were. */
export async function deleteTag(db: Db, companyId: string, owner: string | null, tag: string): Promise<TaggedFile[]> {
  const result = await db.execute(sql`
    with ${affected(companyId, tag, owner)},
    gone as (
      delete from ${fileTags} where ${fileTags.companyId} = ${companyId} and ${fileTags.tag} = ${tag}
        and ${fileTags.fileId} in (select "fileId" from affected))
    select "fileId", before from affected`);
  return rowsOf<TaggedFile>(result);
}
