import { sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import type { RedactionMode } from '@earshot/contracts';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** A company's redaction policy as last heard from the tenant service. */
export interface RedactionPolicy {
  mode: RedactionMode;
  /** Whether the unredacted original of what is hidden is kept (encrypted, for the company's ADMIN). */
  keepOriginal: boolean;
}

/** The company's redaction policy ('off', nothing kept, when never set). */
export async function findRedactionPolicy(db: Db, companyId: string): Promise<RedactionPolicy> {
  const [row] = rowsOf<{ mode: RedactionMode; keep_original: boolean }>(
    await db.execute(
      sql`select mode, keep_original from transcription.redaction_policies where company_id = ${companyId}`,
    ),
  );
  return { mode: row?.mode ?? 'off', keepOriginal: row?.keep_original ?? false };
}

/** The company's redaction mode ('off' when never set). */
export async function findRedactionMode(db: Db, companyId: string): Promise<RedactionMode> {
  return (await findRedactionPolicy(db, companyId)).mode;
}

/** Keeps the newer of the stored policy and this one (events of one company may arrive late). */
export async function saveRedactionPolicy(tx: Db, companyId: string, policy: RedactionPolicy, at: Date): Promise<void> {
  await tx.execute(sql`
    insert into transcription.redaction_policies (company_id, mode, keep_original, updated_at) values (${companyId}, ${policy.mode}, ${policy.keepOriginal}, ${at.toISOString()})
    on conflict (company_id) do update set mode = excluded.mode, keep_original = excluded.keep_original, updated_at = excluded.updated_at
    where redaction_policies.updated_at <= excluded.updated_at`);
}

export async function forgetRedactionMode(tx: Db, companyId: string): Promise<void> {
  await tx.execute(sql`delete from transcription.redaction_policies where company_id = ${companyId}`);
}
