import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { SYSTEM_ACTOR, isId, type EventData, type EventOf, type HoldKind } from '@earshot/contracts';
import type { Db } from './db/database';
import type { Migration } from './db/migrate';
import { on, type Emit, type HandlerSpec } from './bus/handlers';
import type { ServiceContext } from './module';

/** The retention a company's policy sets, in days, per kind of data (null: kept forever). */
export type RetentionField = 'recordingsDays' | 'chatsDays' | 'auditDays';
const COLUMNS: Record<RetentionField, string> = {
  recordingsDays: 'recordings_days',
  chatsDays: 'chats_days',
  auditDays: 'audit_days',
};

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * Each deleting service's own copy of what retention and legal holds say, kept from the
 * tenant's `company.policies_changed`, `client.hold_changed` and `company.hold_changed` (and the
 * file service's `file.hold_changed`, for a service that deletes recordings it does not own).
 * Tables `retention_policies`, `legal_holds` and `retention_runs` in the service's schema, created
 * by `migration`; the handlers go in the service's subscriptions. A hold's owner never reads its
 * own holds from here: it decides from its own rows, in the deleting transaction.
 */
export class RetentionProjection {
  /** Named after the kit so that it sorts after the service's own numbered migrations. */
  readonly migration: Migration = {
    name: 'kit_0002_retention_and_holds',
    sql: `
      create table retention_policies (
        company_id uuid primary key,
        recordings_days integer,
        chats_days integer,
        audit_days integer,
        updated_at timestamptz not null default now()
      );
      -- A held object has a row; lifting the hold deletes it.
      create table legal_holds (
        kind text not null check (kind in ('file', 'client', 'company')),
        id uuid not null,
        company_id uuid not null,
        reason text not null,
        primary key (kind, id)
      );
      create index legal_holds_company_idx on legal_holds (company_id, kind);
      -- The UTC day a retention job last ran: one replica runs it once a day.
      create table retention_runs (
        job text not null,
        day date not null,
        ran_at timestamptz not null default now(),
        primary key (job, day)
      );`,
  };

  constructor(
    private readonly schema: string,
    private readonly kinds: readonly HoldKind[],
  ) {}

  private table(name: string) {
    return sql`${sql.identifier(this.schema)}.${sql.identifier(name)}`;
  }

  /** The newest policy and hold state per company and per held object wins (older events are skipped). */
  handlers(): HandlerSpec[] {
    const holds = this.kinds.map((kind) =>
      on(`${kind}.hold_changed` as const, (event, tx) => this.applyHold(tx, kind, event), {
        entity: (event) => `hold:${event.data.id}`,
      }),
    );
    return [
      on('company.policies_changed', (event, tx) => this.applyPolicies(tx, event), {
        entity: (event) => `retention:${event.data.id}`,
      }),
      on('company.deleted', (event, tx) => this.forgetCompany(tx, event.data.id)),
      ...holds,
    ];
  }

  private async applyPolicies(tx: Db, event: EventOf<'company.policies_changed'>): Promise<void> {
    const { id, after } = event.data;
    if (!isId(id)) return;
    const { recordingsDays, chatsDays, auditDays } = after.retention;
    await tx.execute(sql`
      insert into ${this.table('retention_policies')} (company_id, recordings_days, chats_days, audit_days, updated_at)
      values (${id}, ${recordingsDays}, ${chatsDays}, ${auditDays}, now())
      on conflict (company_id) do update set recordings_days = excluded.recordings_days, chats_days = excluded.chats_days,
        audit_days = excluded.audit_days, updated_at = now()`);
  }

  private async applyHold(
    tx: Db,
    kind: HoldKind,
    event: EventOf<'file.hold_changed' | 'client.hold_changed' | 'company.hold_changed'>,
  ): Promise<void> {
    const { id, hold, reason } = event.data;
    const companyId = kind === 'company' ? id : event.companyId;
    if (!isId(id) || !isId(companyId)) return;
    if (!hold) {
      await tx.execute(sql`delete from ${this.table('legal_holds')} where kind = ${kind} and id = ${id}`);
      return;
    }
    await tx.execute(sql`
      insert into ${this.table('legal_holds')} (kind, id, company_id, reason) values (${kind}, ${id}, ${companyId}, ${reason})
      on conflict (kind, id) do update set reason = excluded.reason`);
  }

  private async forgetCompany(tx: Db, companyId: string): Promise<void> {
    if (!isId(companyId)) return;
    await tx.execute(sql`delete from ${this.table('retention_policies')} where company_id = ${companyId}`);
    await tx.execute(sql`delete from ${this.table('legal_holds')} where company_id = ${companyId}`);
  }

  /**
   * The hold that stops deleting this object, if any: the company's first, then the client's, then
   * the recording's (a kind this projection does not follow is never found here).
   */
  async holdOn(
    db: Db,
    object: { companyId: string; clientId?: string | null; fileId?: string | null },
  ): Promise<HoldKind | null> {
    const wanted = (
      [
        ['company', object.companyId],
        ['client', object.clientId],
        ['file', object.fileId],
      ] as const
    ).filter((pair): pair is readonly [HoldKind, string] => isId(pair[1]));
    if (wanted.length === 0) return null;
    const rows = rowsOf<{ kind: HoldKind }>(
      await db.execute(sql`
      select kind from ${this.table('legal_holds')}
      where company_id = ${object.companyId} and (kind, id) in (${sql.join(
        wanted.map(([kind, id]) => sql`(${kind}, ${id}::uuid)`),
        sql`, `,
      )})`),
    );
    const found = new Set(rows.map((r) => r.kind));
    return wanted.map(([kind]) => kind).find((kind) => found.has(kind)) ?? null;
  }

  /** The company's held clients (a company holds a handful): their recordings are kept. */
  async heldClients(db: Db, companyId: string): Promise<string[]> {
    return rowsOf<{ id: string }>(
      await db.execute(sql`
      select id from ${this.table('legal_holds')} where company_id = ${companyId} and kind = 'client'`),
    ).map((r) => r.id);
  }

  /** Companies whose policy sets this retention, with whether the whole company is held. */
  async policies(db: Db, field: RetentionField): Promise<{ companyId: string; days: number; held: boolean }[]> {
    const column = sql.identifier(COLUMNS[field]);
    return rowsOf<{ companyId: string; days: number; held: boolean }>(
      await db.execute(sql`
      select p.company_id as "companyId", p.${column} as days,
        exists (select 1 from ${this.table('legal_holds')} h where h.kind = 'company' and h.id = p.company_id) as held
      from ${this.table('retention_policies')} p where p.${column} is not null order by p.company_id`),
    );
  }

  /** Claims today's run of a job; false when this or another replica ran it already. */
  async claimDay(db: Db, job: string, now: Date): Promise<boolean> {
    const rows = rowsOf(
      await db.execute(sql`
      insert into ${this.table('retention_runs')} (job, day) values (${job}, ${now.toISOString().slice(0, 10)}::date)
      on conflict do nothing returning job`),
    );
    return rows.length > 0;
  }

  /** Gives a failed run's day back, so the next look tries again. */
  async releaseDay(db: Db, job: string, now: Date): Promise<void> {
    await db.execute(
      sql`delete from ${this.table('retention_runs')} where job = ${job} and day = ${now.toISOString().slice(0, 10)}::date`,
    );
  }
}

/** The cut-off of a retention of `days` at `now`: objects from before it are due. */
export const retentionCutoff = (now: Date, days: number): Date => new Date(now.getTime() - days * 86_400_000);

/** What one service's retention removes: its kind of data and how (see RetentionJob). */
export interface RetentionTarget {
  /** The job's name in retention_runs, and the key of its count in retention.applied's `removed`. */
  kind: string;
  field: RetentionField;
  service: EventData<'retention.applied'>['service'];
  /**
   * Removes up to `limit` of the company's objects from before `olderThan` that no hold covers,
   * in `tx`, through the same path (and events) as a person's delete; how many it removed.
   */
  removeDue(tx: Db, emit: Emit, companyId: string, olderThan: Date, limit: number): Promise<number>;
  /** How many of the company's due objects a hold keeps (0 when only whole-company holds apply). */
  heldDue?(db: Db, companyId: string, olderThan: Date): Promise<number>;
  /** Objects removed per transaction (default 50). */
  batch?: number;
}

/** Objects removed per transaction. */
const RETENTION_BATCH = 50;

/**
 * A service's daily retention: each company whose policy sets the target's field loses
 * what is older than its cut-off, batch by batch, unless the whole company is held (checked again
 * for each batch, so a hold placed mid-run stops it). One `retention.applied` per company that
 * lost something; the removals have their own deleted events.
 */
export class RetentionJob {
  constructor(
    private readonly ctx: Pick<ServiceContext, 'db' | 'transact'>,
    private readonly projection: RetentionProjection,
    private readonly target: RetentionTarget,
  ) {}

  /** Today's run, unless this or another replica did it already (null then). */
  async daily(now = new Date()): Promise<EventData<'retention.applied'>[] | null> {
    if (!(await this.projection.claimDay(this.ctx.db, this.target.kind, now))) return null;
    try {
      return await this.run(now);
    } catch (error) {
      await this.projection.releaseDay(this.ctx.db, this.target.kind, now);
      throw error;
    }
  }

  /** Removes what is due at `now` in every company; what each company that lost something was told. */
  async run(now: Date): Promise<EventData<'retention.applied'>[]> {
    const applied: EventData<'retention.applied'>[] = [];
    for (const policy of await this.projection.policies(this.ctx.db, this.target.field)) {
      if (policy.held) continue;
      const report = await this.company(policy.companyId, policy.days, now);
      if (report) applied.push(report);
    }
    return applied;
  }

  private async company(companyId: string, days: number, now: Date): Promise<EventData<'retention.applied'> | null> {
    const olderThan = retentionCutoff(now, days);
    const limit = this.target.batch ?? RETENTION_BATCH;
    let removed = 0;
    for (;;) {
      const batch = await this.ctx.transact(async (tx, emit) =>
        (await this.projection.holdOn(tx, { companyId }))
          ? 0
          : this.target.removeDue(tx, emit, companyId, olderThan, limit),
      );
      removed += batch;
      if (batch < limit) break;
    }
    if (removed === 0) return null;
    const held = (await this.target.heldDue?.(this.ctx.db, companyId, olderThan)) ?? 0;
    const report = {
      service: this.target.service,
      removed: { [this.target.kind]: removed },
      days,
      olderThan: olderThan.toISOString(),
      held,
    };
    await this.ctx.transact(async (_tx, emit) =>
      emit({ type: 'retention.applied', companyId, actor: SYSTEM_ACTOR, data: report }),
    );
    return report;
  }
}

/** How often a daily job looks whether today (UTC) has run: it runs within this after midnight. */
export const DAILY_JOB_POLL_MS = 15 * 60 * 1000;

/**
 * Runs a daily job at start and then every poll (like the audit's daily anchor); the job itself
 * decides whether today is done (RetentionProjection.claimDay). Returns the timer, for stop().
 */
export function startDailyJob(logger: Logger, name: string, run: (now: Date) => Promise<unknown>): NodeJS.Timeout {
  const tick = () =>
    run(new Date()).then(
      () => undefined,
      (error: unknown) => logger.error({ err: error, job: name }, `${name} failed`),
    );
  void tick();
  const timer = setInterval(() => void tick(), DAILY_JOB_POLL_MS);
  timer.unref();
  return timer;
}
