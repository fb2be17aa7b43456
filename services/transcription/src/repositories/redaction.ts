import { sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import type { RedactionMode } from '@earshot/contracts';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** The company's redaction mode as last heard from the tenant service ('off' when never set). */
export async function findRedactionMode(db: Db, companyId: string): Promise<RedactionMode> {
  const [row] = rowsOf<{ mode: RedactionMode }>(await db.execute(sql`select mode from transcription.redaction_policies where company_id = ${companyId}`));
  return row?.mode ?? 'off';
}

/** Keeps the newer of the stored mode and this one (events of one company may arrive late). */
export async function saveRedactionMode(tx: Db, companyId: string, mode: RedactionMode, at: Date): Promise<void> {
  await tx.execute(sql`
    insert into transcription.redaction_policies (company_id, mode, updated_at) values (${companyId}, ${mode}, ${at.toISOString()})
    on conflict (company_id) do update set mode = excluded.mode, updated_at = excluded.updated_at
    where redaction_policies.updated_at <= excluded.updated_at`);
}

export async function forgetRedactionMode(tx: Db, companyId: string): Promise<void> {
  await tx.execute(sql`delete from transcription.redaction_policies where company_id = ${companyId}`);
}
