import { sql } from 'drizzle-orm';
import { isId, type EventOf, type RedactionMode } from '@earshot/contracts';
import type { Db } from './db/database';
import type { Migration } from './db/migrate';
import { on, type HandlerSpec } from './bus/handlers';

/**
 * Each service's own copy of every company's redaction mode, kept from the tenant service's
 * `company.policies_changed`, for the services that store a company's free text outside
 * transcripts (tags, tasks, chat questions): with the mode on, the text is redacted before it is
 * stored (`redactText` of @earshot/redaction). One table per service schema, `redaction_modes`,
 * created by `migration`; the handlers go in the service's subscriptions. Read in the writing
 * transaction, so the mode in force at commit applies. A company never heard of is 'off', as in
 * the transcription service's own table.
 */
export class RedactionModeProjection {
  /** Named after the kit so that it sorts after the service's own numbered migrations. */
  readonly migration: Migration = {
    name: 'kit_0005_redaction_modes',
    sql: `create table redaction_modes (
            company_id uuid primary key,
            mode text not null,
            updated_at timestamptz not null)`,
  };

  constructor(private readonly schema: string) {}

  private get table() {
    return sql`${sql.identifier(this.schema)}.redaction_modes`;
  }

  /** The newest event per company wins (events of one company may arrive late); company.deleted forgets it. */
  handlers(): HandlerSpec[] {
    return [
      on('company.policies_changed', (event, tx) => this.apply(tx, event), {
        entity: (event) => `redaction:${event.data.id}`,
      }),
      on('company.deleted', async (event, tx) => {
        if (isId(event.data.id)) await tx.execute(sql`delete from ${this.table} where company_id = ${event.data.id}`);
      }),
    ];
  }

  private async apply(tx: Db, event: EventOf<'company.policies_changed'>): Promise<void> {
    const { id, after } = event.data;
    if (!isId(id)) return;
    await tx.execute(sql`
      insert into ${this.table} (company_id, mode, updated_at) values (${id}, ${after.redaction}, ${event.occurredAt})
      on conflict (company_id) do update set mode = excluded.mode, updated_at = excluded.updated_at
      where redaction_modes.updated_at <= excluded.updated_at`);
  }

  /** The company's redaction mode ('off' when never set). */
  async modeOf(db: Db, companyId: string): Promise<RedactionMode> {
    const result = (await db.execute(
      sql`select mode from ${this.table} where company_id = ${companyId}`,
    )) as unknown as { rows: { mode: RedactionMode }[] };
    return result.rows[0]?.mode ?? 'off';
  }

  /** Whether the company's free text is redacted before it is stored. */
  async redacts(db: Db, companyId: string): Promise<boolean> {
    return (await this.modeOf(db, companyId)) !== 'off';
  }
}
