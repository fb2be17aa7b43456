import { sql } from 'drizzle-orm';
import { isId, type EventOf } from '@earshot/contracts';
import type { Db } from './db/database';
import type { Migration } from './db/migrate';
import { on, type HandlerSpec } from './bus/handlers';
import type { Identity } from './auth';

/** A company type whose members' recordings, transcripts and conversations are private to each of them. */
export const PRIVATE_COMPANY_TYPE = 'b2c';

type CompanyEvent = EventOf<'company.created' | 'company.updated' | 'company.deleted'>;

/**
 * Each service's own copy of every company's type, kept from the tenant service's company events,
 * for rules that depend on it (a `b2c` company's members do not share recordings). One table per
 * service schema, `company_types`, created by `migration` (add it to the service's migrations);
 * the handlers go in the service's subscriptions. Other per-company facts that several services
 * need (feature switches) can join this table as columns.
 */
export class CompanyTypeProjection {
  /** Named after the kit so that it sorts after the service's own numbered migrations. */
  readonly migration: Migration = {
    name: 'kit_0001_company_types',
    sql: `create table company_types (
            id uuid primary key,
            type text not null,
            updated_at timestamptz not null default now())`,
  };

  constructor(private readonly schema: string) {}

  private get table() {
    return sql`${sql.identifier(this.schema)}.company_types`;
  }

  /** company.created/updated set the type, company.deleted drops it; the newest event per company wins. */
  handlers(): HandlerSpec[] {
    return (['company.created', 'company.updated', 'company.deleted'] as const).map((type) =>
      on(type, (event, tx) => this.apply(tx, event), { entity: (event) => event.data.id }),
    );
  }

  private async apply(tx: Db, event: CompanyEvent): Promise<void> {
    const { id, after } = event.data;
    if (!isId(id)) return;
    if (event.type === 'company.deleted' || !after) {
      await tx.execute(sql`delete from ${this.table} where id = ${id}`);
      return;
    }
    // A company.updated of a build that left the type out keeps the type known so far.
    if (after.type === undefined) return;
    await tx.execute(sql`
      insert into ${this.table} (id, type, updated_at) values (${id}, ${after.type}, now())
      on conflict (id) do update set type = excluded.type, updated_at = now()`);
  }

  /** The company's type, or null when no event has told us of it yet. */
  async typeOf(db: Db, companyId: string): Promise<string | null> {
    const result = (await db.execute(sql`select type from ${this.table} where id = ${companyId}`)) as unknown as {
      rows: { type: string }[];
    };
    return result.rows[0]?.type ?? null;
  }

  /**
   * Whose objects alone the caller may see: in a `b2c` company, the caller's own (their user id);
   * otherwise null, no restriction beyond the company (members share). A HOST_ADMIN sees everything.
   */
  async ownerScope(db: Db, identity: Identity): Promise<string | null> {
    if (identity.role === 'HOST_ADMIN' || !identity.companyId) return null;
    return (await this.typeOf(db, identity.companyId)) === PRIVATE_COMPANY_TYPE ? identity.userId : null;
  }
}
