import { and, arrayContains, asc, count, desc, eq, gte, inArray, isNotNull, lte, sql, type SQL } from 'drizzle-orm';
import type { DashboardGroup } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  clients,
  dashboardAgentDays,
  dashboardClientMonths,
  dashboardCalls,
  dashboardClients,
  dashboardDays,
  dashboardMembers,
  dashboardScores,
  dashboardSpeakers,
  dashboardTagDays,
  dashboardTasks,
  transcripts,
  type DashboardCallRow,
} from '../db/schema';

// ---- Writes (the projection) ----

export type CallFacts = Omit<typeof dashboardCalls.$inferInsert, 'tags'>;

/** The agent's share of a stereo call's talk; null when it is not one, or nobody spoke. */
function shareOf(row: DashboardCallRow, side: 'agent' | 'customer'): number | null {
  if (row.agentTalk === null || row.customerTalk === null || row.agentTalk + row.customerTalk <= 0) return null;
  return (side === 'agent' ? row.agentTalk : row.customerTalk) / (row.agentTalk + row.customerTalk);
}

/** Adds a transcribed call's figures to (sign 1) or takes them from (sign −1) the day, agent and tag sums. */
async function contribute(
  tx: Db,
  row: DashboardCallRow | undefined,
  sign: 1 | -1,
  only: 'all' | 'tags' = 'all',
): Promise<void> {
  if (!row || row.seconds === null) return;
  const key = { companyId: row.companyId, day: row.day, calls: sign, seconds: sign * row.seconds };
  const add = <T extends PgTable>(table: T, columns: string[]) =>
    Object.fromEntries(
      columns.map((name) => {
        const column = (table as unknown as Record<string, AnyPgColumn>)[name]!;
        return [name, sql`${column} + excluded.${sql.identifier(column.name)}`];
      }),
    );
  const agentShare = shareOf(row, 'agent');
  const measured = row.talk !== null;
  const silent = measured && row.silence !== null && row.seconds > 0;
  const words = sign * (row.words ?? 0);
  const talk = sign * (row.talk ?? 0);
  if (only === 'all') {
    await tx
      .insert(dashboardDays)
      .values({
        ...key,
        sharedCalls: agentShare === null ? 0 : sign,
        agentShare: sign * (agentShare ?? 0),
        customerShare: sign * (shareOf(row, 'customer') ?? 0),
        silentCalls: silent ? sign : 0,
        silenceShare: silent ? sign * (row.silence! / row.seconds) : 0,
        measuredCalls: measured ? sign : 0,
        overlaps: sign * (row.overlaps ?? 0),
        words,
        talk,
      })
      .onConflictDoUpdate({
        target: [dashboardDays.companyId, dashboardDays.day],
        set: add(dashboardDays, [
          'calls',
          'seconds',
          'sharedCalls',
          'agentShare',
          'customerShare',
          'silentCalls',
          'silenceShare',
          'measuredCalls',
          'overlaps',
          'words',
          'talk',
        ]),
      });
    if (row.agentId) {
      await tx
        .insert(dashboardAgentDays)
        .values({
          ...key,
          agentId: row.agentId,
          sharedCalls: agentShare === null ? 0 : sign,
          agentShare: sign * (agentShare ?? 0),
          words,
          talk,
        })
        .onConflictDoUpdate({
          target: [dashboardAgentDays.companyId, dashboardAgentDays.day, dashboardAgentDays.agentId],
          set: add(dashboardAgentDays, ['calls', 'seconds', 'sharedCalls', 'agentShare', 'words', 'talk']),
        });
    }
    if (row.clientId) await contributeClient(tx, row, sign);
  }
  if (row.tags.length > 0) {
    await tx
      .insert(dashboardTagDays)
      .values(row.tags.map((tag) => ({ ...key, tag })))
      .onConflictDoUpdate({
        target: [dashboardTagDays.companyId, dashboardTagDays.day, dashboardTagDays.tag],
        set: add(dashboardTagDays, ['calls', 'seconds']),
      });
  }
}

/** The call's client-month: counts add up; the latest call is recomputed without this call when it leaves. */
async function contributeClient(tx: Db, row: DashboardCallRow, sign: 1 | -1): Promise<void> {
  const month = `${row.day.slice(0, 7)}-01`;
  const m = dashboardClientMonths;
  const others = sql`(select max(${c.at}) from ${c} where ${c.companyId} = ${row.companyId} and ${c.clientId} = ${row.clientId}
    and ${c.day} >= ${month}::date and ${c.day} < ${month}::date + interval '1 month' and ${c.seconds} is not null and ${c.fileId} <> ${row.fileId})`;
  await tx
    .insert(m)
    .values({
      companyId: row.companyId,
      month,
      clientId: row.clientId!,
      calls: sign,
      seconds: sign * row.seconds!,
      lastAt: sign === 1 ? row.at : null,
    })
    .onConflictDoUpdate({
      target: [m.companyId, m.month, m.clientId],
      set: {
        calls: sql`${m.calls} + excluded.calls`,
        seconds: sql`${m.seconds} + excluded.seconds`,
        lastAt: sign === 1 ? sql`greatest(${m.lastAt}, excluded.last_at)` : others,
      },
    });
}

const lockedCall = async (tx: Db, fileId: string) =>
  (await tx.select().from(dashboardCalls).where(eq(dashboardCalls.fileId, fileId)).for('update'))[0];

/** A call's facts as the transcript copy now gives them; its tags stay as the file events set them. The sums follow. */
export async function saveCall(tx: Db, row: CallFacts): Promise<void> {
  const { fileId: _key, ...set } = row;
  await contribute(tx, await lockedCall(tx, row.fileId), -1);
  const [saved] = await tx
    .insert(dashboardCalls)
    .values(row)
    .onConflictDoUpdate({ target: dashboardCalls.fileId, set })
    .returning();
  await contribute(tx, saved, 1);
  await tx
    .update(dashboardScores)
    .set({ clientId: row.clientId ?? null })
    .where(
      and(
        eq(dashboardScores.fileId, row.fileId),
        sql`${dashboardScores.clientId} is distinct from ${row.clientId ?? null}`,
      ),
    );
}

export async function setTags(tx: Db, fileId: string, tags: string[]): Promise<void> {
  await contribute(tx, await lockedCall(tx, fileId), -1, 'tags');
  const [saved] = await tx.update(dashboardCalls).set({ tags }).where(eq(dashboardCalls.fileId, fileId)).returning();
  await contribute(tx, saved, 1, 'tags');
}

/** The call is gone: its row, its part of the sums, its speakers and scorecard answers go too. */
export async function removeCall(tx: Db, fileId: string): Promise<void> {
  const [gone] = await tx.delete(dashboardCalls).where(eq(dashboardCalls.fileId, fileId)).returning();
  await contribute(tx, gone, -1);
  await tx.delete(dashboardSpeakers).where(eq(dashboardSpeakers.fileId, fileId));
  await tx.delete(dashboardScores).where(eq(dashboardScores.fileId, fileId));
}

export async function forgetSpeakers(tx: Db, fileId: string): Promise<void> {
  await tx.delete(dashboardSpeakers).where(eq(dashboardSpeakers.fileId, fileId));
}

/** Speakers by id: a new one takes its role from its first name; later renames keep the role. */
export async function saveSpeakers(
  tx: Db,
  fileId: string,
  speakers: { speakerId: string; name: string; role: 'agent' | 'customer' | null }[],
): Promise<void> {
  if (speakers.length === 0) return;
  await tx
    .insert(dashboardSpeakers)
    .values(speakers.map((s) => ({ fileId, ...s })))
    .onConflictDoUpdate({
      target: [dashboardSpeakers.fileId, dashboardSpeakers.speakerId],
      set: { name: sql`excluded.name` },
    });
}

export async function speakersOf(db: Db, fileId: string) {
  return db
    .select()
    .from(dashboardSpeakers)
    .where(eq(dashboardSpeakers.fileId, fileId))
    .orderBy(asc(dashboardSpeakers.speakerId));
}

export async function saveMember(tx: Db, row: typeof dashboardMembers.$inferInsert): Promise<void> {
  const { userId: _key, ...set } = row;
  await tx.insert(dashboardMembers).values(row).onConflictDoUpdate({ target: dashboardMembers.userId, set });
}

/** Members of the company by lower-cased full name; a name two members share is left out (no guessing). */
export async function membersNamed(db: Db, companyId: string, names: string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(names.map((n) => n.trim().toLowerCase()).filter(Boolean))];
  if (wanted.length === 0) return new Map();
  const key = sql<string>`lower(${dashboardMembers.name})`;
  const rows = await db
    .select({ name: key, userId: sql<string>`min(${dashboardMembers.userId})`, n: count() })
    .from(dashboardMembers)
    .where(and(eq(dashboardMembers.companyId, companyId), eq(dashboardMembers.deleted, false), inArray(key, wanted)))
    .groupBy(key);
  return new Map(rows.filter((r) => r.n === 1).map((r) => [r.name, r.userId]));
}

export async function saveClientOrganisation(tx: Db, row: typeof dashboardClients.$inferInsert): Promise<void> {
  await tx
    .insert(dashboardClients)
    .values(row)
    .onConflictDoUpdate({
      target: dashboardClients.clientId,
      set: { organisation: row.organisation, updatedAt: row.updatedAt },
      setWhere: sql`${dashboardClients.updatedAt} <= ${row.updatedAt}`,
    });
}

export type ScoreRow = typeof dashboardScores.$inferInsert;

/** A completed run's answers replace those of an earlier run of the prompt on the call (never a later one's). */
export async function saveScores(tx: Db, rows: ScoreRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx
    .insert(dashboardScores)
    .values(rows)
    .onConflictDoUpdate({
      target: [dashboardScores.fileId, dashboardScores.promptId, dashboardScores.field],
      set: {
        runId: sql`excluded.run_id`,
        day: sql`excluded.day`,
        clientId: sql`excluded.client_id`,
        finishedAt: sql`excluded.finished_at`,
        intValue: sql`excluded.int_value`,
        optionValue: sql`excluded.option_value`,
        boolValue: sql`excluded.bool_value`,
      },
      setWhere: sql`${dashboardScores.finishedAt} <= excluded.finished_at`,
    });
}

export async function saveTask(tx: Db, row: typeof dashboardTasks.$inferInsert): Promise<void> {
  const { taskId: _key, ...set } = row;
  await tx.insert(dashboardTasks).values(row).onConflictDoUpdate({ target: dashboardTasks.taskId, set });
}

export async function removeTask(tx: Db, taskId: string): Promise<void> {
  await tx.delete(dashboardTasks).where(eq(dashboardTasks.taskId, taskId));
}

export async function callOf(db: Db, fileId: string) {
  const [row] = await db.select().from(dashboardCalls).where(eq(dashboardCalls.fileId, fileId));
  return row;
}

/** A deleted company's dashboards (its members' names stay until their own user.deleted). */
export async function deleteCompanyDashboards(tx: Db, companyId: string): Promise<void> {
  const files = tx
    .select({ fileId: dashboardCalls.fileId })
    .from(dashboardCalls)
    .where(eq(dashboardCalls.companyId, companyId));
  await tx.delete(dashboardSpeakers).where(inArray(dashboardSpeakers.fileId, files));
  await tx.delete(dashboardCalls).where(eq(dashboardCalls.companyId, companyId));
  await tx.delete(dashboardScores).where(eq(dashboardScores.companyId, companyId));
  await tx.delete(dashboardTasks).where(eq(dashboardTasks.companyId, companyId));
  for (const table of [dashboardDays, dashboardAgentDays, dashboardTagDays, dashboardClientMonths])
    await tx.delete(table).where(eq(table.companyId, companyId));
}

// ---- Reads ----

/** Which calls: a company's transcribed calls of days [from, to], narrowed by the filters (and, in a b2c company, to the caller's own). */
export interface CallScope {
  companyId: string;
  from: string;
  to: string;
  agentId?: string;
  clientId?: string;
  tag?: string;
  /** b2c: only the calls this person uploaded. */
  owner?: string | null;
}

const c = dashboardCalls;

function callsWhere(scope: CallScope): SQL {
  return and(
    eq(c.companyId, scope.companyId),
    gte(c.day, scope.from),
    lte(c.day, scope.to),
    isNotNull(c.seconds),
    scope.agentId ? eq(c.agentId, scope.agentId) : undefined,
    scope.clientId ? eq(c.clientId, scope.clientId) : undefined,
    scope.tag ? arrayContains(c.tags, [scope.tag]) : undefined,
    scope.owner ? eq(c.uploadedBy, scope.owner) : undefined,
  )!;
}

/** The first day (YYYY-MM-DD) of a day's period; weeks start on Monday (PostgreSQL's ISO weeks). */
export function periodOf(day: SQL | AnyPgColumn, group: DashboardGroup): SQL<string> {
  // The unit is written into the text (one of three words): a bound parameter would differ between the select and the group by.
  const start = group === 'day' ? sql`${day}` : sql`date_trunc(${sql.raw(`'${group}'`)}, ${day})::date`;
  return sql<string>`to_char(${start}, 'YYYY-MM-DD')`;
}

const num = (column: SQL) => sql<number>`coalesce(${column}, 0)::float8`;
const orNull = (value: SQL) => sql<number | null>`(${value})::float8`;
/** The agent's share of a stereo call's talk: agent ÷ (agent + customer), null when neither spoke. */
const agentShare = sql`${c.agentTalk} / nullif(${c.agentTalk} + ${c.customerTalk}, 0)`;

/** No filter narrows the calls: the day, agent and tag sums answer for them. */
const whole = (scope: CallScope) => !scope.agentId && !scope.clientId && !scope.tag && !scope.owner;

function sumsWhere(
  table: typeof dashboardDays | typeof dashboardAgentDays | typeof dashboardTagDays,
  scope: CallScope,
): SQL {
  return and(eq(table.companyId, scope.companyId), gte(table.day, scope.from), lte(table.day, scope.to))!;
}

const d = dashboardDays;
const ad = dashboardAgentDays;
const td = dashboardTagDays;

export async function callSeries(db: Db, scope: CallScope, group: DashboardGroup) {
  if (whole(scope)) {
    const period = periodOf(d.day, group);
    return db
      .select({ period, count: sql<number>`sum(${d.calls})::int`, seconds: num(sql`sum(${d.seconds})`) })
      .from(d)
      .where(sumsWhere(d, scope))
      .groupBy(period)
      .having(sql`sum(${d.calls}) > 0`)
      .orderBy(period);
  }
  const period = periodOf(c.day, group);
  return db
    .select({ period, count: count(), seconds: num(sql`sum(${c.seconds})`) })
    .from(c)
    .where(callsWhere(scope))
    .groupBy(period)
    .orderBy(period);
}

/** Averages over the calls that have each figure (README "Dashboards"). */
export async function talkFigures(db: Db, scope: CallScope) {
  if (whole(scope)) {
    const [sums] = await db
      .select({
        agentShare: orNull(sql`sum(${d.agentShare}) / nullif(sum(${d.sharedCalls}), 0)`),
        customerShare: orNull(sql`sum(${d.customerShare}) / nullif(sum(${d.sharedCalls}), 0)`),
        silenceShare: orNull(sql`sum(${d.silenceShare}) / nullif(sum(${d.silentCalls}), 0)`),
        interruptionsPerCall: orNull(sql`sum(${d.overlaps})::float8 / nullif(sum(${d.measuredCalls}), 0)`),
        wordsPerMinute: orNull(sql`sum(${d.words}) / nullif(sum(${d.talk}) / 60, 0)`),
      })
      .from(d)
      .where(sumsWhere(d, scope));
    return sums!;
  }
  const [row] = await db
    .select({
      agentShare: orNull(sql`avg(${agentShare})`),
      customerShare: orNull(sql`avg(${c.customerTalk} / nullif(${c.agentTalk} + ${c.customerTalk}, 0))`),
      silenceShare: orNull(sql`avg(${c.silence} / nullif(${c.seconds}, 0))`),
      interruptionsPerCall: orNull(sql`avg(${c.overlaps})`),
      wordsPerMinute: orNull(sql`sum(${c.words}) / nullif(sum(${c.talk}) / 60, 0)`),
    })
    .from(c)
    .where(callsWhere(scope));
  return row!;
}

export async function byAgent(db: Db, scope: CallScope) {
  const name = sql<string>`coalesce(min(${dashboardMembers.name}), '')`;
  if (whole(scope)) {
    const calls = sql<number>`sum(${ad.calls})::int`;
    return db
      .select({
        agentId: ad.agentId,
        name,
        count: calls,
        seconds: num(sql`sum(${ad.seconds})`),
        talkShare: orNull(sql`sum(${ad.agentShare}) / nullif(sum(${ad.sharedCalls}), 0)`),
        wordsPerMinute: orNull(sql`sum(${ad.words}) / nullif(sum(${ad.talk}) / 60, 0)`),
      })
      .from(ad)
      .leftJoin(dashboardMembers, eq(dashboardMembers.userId, ad.agentId))
      .where(sumsWhere(ad, scope))
      .groupBy(ad.agentId)
      .having(sql`sum(${ad.calls}) > 0`)
      .orderBy(desc(calls), asc(ad.agentId));
  }
  return db
    .select({
      agentId: sql<string>`${c.agentId}`,
      name,
      count: count(),
      seconds: num(sql`sum(${c.seconds})`),
      talkShare: orNull(sql`avg(${agentShare})`),
      wordsPerMinute: orNull(sql`sum(${c.words}) / nullif(sum(${c.talk}) / 60, 0)`),
    })
    .from(c)
    .leftJoin(dashboardMembers, eq(dashboardMembers.userId, c.agentId))
    .where(and(callsWhere(scope), isNotNull(c.agentId)))
    .groupBy(c.agentId)
    .orderBy(desc(count()), asc(c.agentId));
}

/** The whole months inside [from, to]: [first month's first day, the first day after the last) — empty when first >= end. */
function wholeMonths(from: string, to: string): { first: string; end: string } {
  const start = new Date(`${from}T00:00:00Z`);
  if (start.getUTCDate() !== 1) start.setUTCMonth(start.getUTCMonth() + 1, 1);
  const after = new Date(`${to}T00:00:00Z`);
  after.setUTCDate(after.getUTCDate() + 1);
  const end = new Date(Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), 1));
  return { first: start.toISOString().slice(0, 10), end: end.toISOString().slice(0, 10) };
}

interface ClientFigures {
  clientId: string;
  name: string;
  count: number;
  seconds: number;
  lastCall: Date | string | null;
}

export async function byClient(db: Db, scope: CallScope): Promise<ClientFigures[]> {
  if (whole(scope)) {
    // Whole months from their sums, the partial months at either end from their calls.
    const { first, end } = wholeMonths(scope.from, scope.to);
    const m = dashboardClientMonths;
    const edges =
      first < end
        ? sql`((${c.day} >= ${scope.from} and ${c.day} < ${first}) or (${c.day} >= ${end} and ${c.day} <= ${scope.to}))`
        : sql`${c.day} between ${scope.from} and ${scope.to}`;
    const result = await db.execute(sql`
      select x.client_id::text as "clientId", coalesce(min(${clients.name}), '') as name, sum(x.n)::int as count,
             coalesce(sum(x.secs), 0)::float8 as seconds, max(x.last) as "lastCall"
      from (
        select ${m.clientId} as client_id, ${m.calls} as n, ${m.seconds} as secs, ${m.lastAt} as last from ${m}
        where ${m.companyId} = ${scope.companyId} and ${m.month} >= ${first} and ${m.month} < ${end}
        union all
        select ${c.clientId}, 1, ${c.seconds}, ${c.at} from ${c}
        where ${c.companyId} = ${scope.companyId} and ${c.seconds} is not null and ${c.clientId} is not null and ${edges}
      ) x left join ${clients} on ${clients.id} = x.client_id
      group by x.client_id having sum(x.n) > 0
      order by count desc, x.client_id`);
    return (result as unknown as { rows: ClientFigures[] }).rows;
  }
  return db
    .select({
      clientId: sql<string>`${c.clientId}::text`,
      name: sql<string>`coalesce(min(${clients.name}), '')`,
      count: count(),
      seconds: num(sql`sum(${c.seconds})`),
      lastCall: sql<Date | string | null>`max(${c.at})`,
    })
    .from(c)
    .leftJoin(clients, eq(clients.id, c.clientId))
    .where(and(callsWhere(scope), isNotNull(c.clientId)))
    .groupBy(c.clientId)
    .orderBy(desc(count()), asc(c.clientId));
}

export async function byTag(db: Db, scope: CallScope) {
  if (whole(scope)) {
    const calls = sql<number>`sum(${td.calls})::int`;
    return db
      .select({ tag: td.tag, count: calls, seconds: num(sql`sum(${td.seconds})`) })
      .from(td)
      .where(sumsWhere(td, scope))
      .groupBy(td.tag)
      .having(sql`sum(${td.calls}) > 0`)
      .orderBy(desc(calls), asc(td.tag));
  }
  const tag = sql<string>`t.tag`;
  return db
    .select({ tag, count: count(), seconds: num(sql`sum(${c.seconds})`) })
    .from(c)
    .innerJoin(sql`unnest(${c.tags}) as t(tag)`, sql`true`)
    .where(callsWhere(scope))
    .groupBy(tag)
    .orderBy(desc(count()), asc(tag));
}

/** The calls themselves, newest first, with how many there are in all. */
export async function callList(db: Db, scope: CallScope, limit: number) {
  const where = callsWhere(scope);
  const [items, [total]] = await Promise.all([
    db
      .select({
        fileId: c.fileId,
        originalName: c.fileName,
        at: c.at,
        seconds: num(sql`${c.seconds}`),
        agentId: c.agentId,
        clientId: c.clientId,
      })
      .from(c)
      .where(where)
      .orderBy(desc(c.at), asc(c.fileId))
      .limit(limit),
    db.select({ n: count() }).from(c).where(where),
  ]);
  return { items, total: total?.n ?? 0 };
}

const s = dashboardScores;

/** What a group of answers sums to: runs, integers' sum and count, trues and booleans counted. */
const answerSums = () => ({
  runs: count().as('runs'),
  intSum: sql<number>`sum(${s.intValue})`.as('int_sum'),
  ints: count(s.intValue).as('ints'),
  trues: sql<number>`count(*) filter (where ${s.boolValue})`.as('trues'),
  bools: count(s.boolValue).as('bools'),
});

/** One field's answers per period: average of integers, rate of true, count per option. */
export async function scoreSeries(
  db: Db,
  scope: CallScope & { promptId: string; field: string },
  group: DashboardGroup,
) {
  const filtered = scope.agentId || scope.clientId || scope.tag || scope.owner;
  // Per day first (a date is cheap to group by), then per period: the period's text is made once a day, not once an answer.
  const days = db
    .select({
      day: s.day,
      option: s.optionValue,
      ...answerSums(),
    })
    .from(s)
    .where(
      and(
        eq(s.companyId, scope.companyId),
        eq(s.promptId, scope.promptId),
        eq(s.field, scope.field),
        gte(s.day, scope.from),
        lte(s.day, scope.to),
        filtered ? inArray(s.fileId, db.select({ fileId: c.fileId }).from(c).where(callsWhere(scope))) : undefined,
      ),
    )
    .groupBy(s.day, s.optionValue)
    .as('days');
  const period = periodOf(days.day, group);
  return db
    .select({
      period,
      option: days.option,
      runs: sql<number>`sum(${days.runs})::int`,
      average: orNull(sql`sum(${days.intSum})::float8 / nullif(sum(${days.ints}), 0)`),
      rate: orNull(sql`sum(${days.trues})::float8 / nullif(sum(${days.bools}), 0)`),
    })
    .from(days)
    .groupBy(period, days.option)
    .orderBy(period, days.option);
}

/** The company's clients with their calls (count, latest) and open tasks; a b2c member's counts are of their own calls. */
export async function crmClients(db: Db, companyId: string, owner: string | null) {
  const m = dashboardClientMonths;
  // All time: the client-month sums, or (a b2c member) their own calls.
  const calls = owner
    ? db
        .select({ clientId: c.clientId, n: count().as('n'), last: sql<Date | null>`max(${c.at})`.as('last') })
        .from(c)
        .where(and(eq(c.companyId, companyId), isNotNull(c.seconds), eq(c.uploadedBy, owner)))
        .groupBy(c.clientId)
        .as('calls')
    : db
        .select({
          clientId: m.clientId,
          n: sql<number>`sum(${m.calls})`.as('n'),
          last: sql<Date | null>`max(${m.lastAt})`.as('last'),
        })
        .from(m)
        .where(eq(m.companyId, companyId))
        .groupBy(m.clientId)
        .as('calls');
  const tasks = db
    .select({ clientId: dashboardTasks.clientId, n: count().as('open') })
    .from(dashboardTasks)
    .where(and(eq(dashboardTasks.companyId, companyId), eq(dashboardTasks.open, true)))
    .groupBy(dashboardTasks.clientId)
    .as('tasks');
  return db
    .select({
      clientId: sql<string>`${clients.id}::text`,
      name: clients.name,
      organisation: dashboardClients.organisation,
      calls: sql<number>`coalesce(${calls.n}, 0)::int`,
      lastContact: sql<Date | string | null>`${calls.last}`,
      openTasks: sql<number>`coalesce(${tasks.n}, 0)::int`,
    })
    .from(clients)
    .leftJoin(dashboardClients, eq(dashboardClients.clientId, clients.id))
    .leftJoin(calls, eq(calls.clientId, clients.id))
    .leftJoin(tasks, eq(tasks.clientId, clients.id))
    .where(and(eq(clients.companyId, companyId), eq(clients.deleted, false)))
    .orderBy(sql`${calls.last} desc nulls last`, asc(clients.name), asc(clients.id));
}

/** One field's monthly answers per client since `from` (months as YYYY-MM-DD of their first day). */
const monthOfDay = sql`date_trunc('month', ${s.day})::date`;

export async function clientTrends(
  db: Db,
  scope: { companyId: string; promptId: string; field: string; from: string; owner: string | null },
) {
  // Per client, month (a date) and answer first; the month's text once per group.
  const groups = db
    .select({
      clientId: s.clientId,
      month: sql<string>`${monthOfDay}`.as('month'),
      option: s.optionValue,
      ...answerSums(),
    })
    .from(s)
    .where(
      and(
        eq(s.companyId, scope.companyId),
        eq(s.promptId, scope.promptId),
        eq(s.field, scope.field),
        gte(s.day, scope.from),
        isNotNull(s.clientId),
        scope.owner
          ? inArray(
              s.fileId,
              db
                .select({ fileId: c.fileId })
                .from(c)
                .where(and(eq(c.companyId, scope.companyId), eq(c.uploadedBy, scope.owner))),
            )
          : undefined,
      ),
    )
    .groupBy(s.clientId, monthOfDay, s.optionValue)
    .as('groups');
  return db
    .select({
      clientId: sql<string>`${groups.clientId}::text`,
      period: sql<string>`to_char(${groups.month}, 'YYYY-MM-DD')`,
      option: groups.option,
      runs: sql<number>`${groups.runs}::int`,
      average: orNull(sql`${groups.intSum}::float8 / nullif(${groups.ints}, 0)`),
      rate: orNull(sql`${groups.trues}::float8 / nullif(${groups.bools}, 0)`),
    })
    .from(groups);
}

/** The transcript copy's row of a file (any company). */
export async function transcriptOf(db: Db, fileId: string) {
  const [row] = await db.select().from(transcripts).where(eq(transcripts.fileId, fileId));
  return row;
}
