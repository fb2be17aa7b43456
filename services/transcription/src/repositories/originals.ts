import { sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** Where a recording's unredacted original is stored (object keys of the audio storage). */
export interface KeptOriginal {
  fileId: string;
  companyId: string;
  wordsKey: string;
  /** The audio before it was silenced (policy text_audio), with its content type; null with policy text. */
  audioKey: string | null;
  audioType: string | null;
}

interface Row {
  file_id: string;
  company_id: string;
  words_key: string;
  audio_key: string | null;
  audio_type: string | null;
}

const toKept = (row: Row): KeptOriginal => ({
  fileId: row.file_id,
  companyId: row.company_id,
  wordsKey: row.words_key,
  audioKey: row.audio_key,
  audioType: row.audio_type,
});

export async function findOriginal(db: Db, fileId: string): Promise<KeptOriginal | null> {
  const [row] = rowsOf<Row>(
    await db.execute(
      sql`select file_id, company_id, words_key, audio_key, audio_type from transcription.kept_originals where file_id = ${fileId}`,
    ),
  );
  return row ? toKept(row) : null;
}

export async function findCompanyOriginals(db: Db, companyId: string): Promise<KeptOriginal[]> {
  return rowsOf<Row>(
    await db.execute(
      sql`select file_id, company_id, words_key, audio_key, audio_type from transcription.kept_originals where company_id = ${companyId}`,
    ),
  ).map(toKept);
}

/**
 * Records (or replaces) the original of a recording whose transcript still exists; false when the
 * transcript is gone (deleted while the job ran), so the caller removes the objects it just wrote.
 */
export async function saveOriginal(db: Db, kept: KeptOriginal): Promise<boolean> {
  const rows = rowsOf<{ file_id: string }>(
    await db.execute(sql`
    insert into transcription.kept_originals (file_id, company_id, words_key, audio_key, audio_type, kept_at)
    select ${kept.fileId}, ${kept.companyId}, ${kept.wordsKey}, ${kept.audioKey}, ${kept.audioType}, now()
    where exists (select 1 from transcription.transcripts t where t.file_id = ${kept.fileId})
    on conflict (file_id) do update set words_key = excluded.words_key, audio_key = excluded.audio_key, audio_type = excluded.audio_type, kept_at = excluded.kept_at
    returning file_id`),
  );
  return rows.length > 0;
}

export async function deleteOriginal(db: Db, fileId: string): Promise<void> {
  await db.execute(sql`delete from transcription.kept_originals where file_id = ${fileId}`);
}

export async function deleteCompanyOriginals(db: Db, companyId: string): Promise<void> {
  await db.execute(sql`delete from transcription.kept_originals where company_id = ${companyId}`);
}
