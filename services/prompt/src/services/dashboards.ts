import {
  DASHBOARD_RANGE_DAYS_MAX,
  type AnalyticsDto,
  type AnalyticsQuery,
  type CrmDto,
  type CrmQuery,
  type DashboardCallsDto,
  type DashboardCallsQuery,
  type DashboardGroup,
  type FormatFieldDto,
  type ScorecardPoint,
  type ScorecardQuery,
} from '@earshot/contracts';
import { badRequest, notFound, type Identity, type ServiceContext } from '@earshot/kit';
import type { PromptConfig } from '../config';
import * as repo from '../repositories/dashboards';
import { findPrompt } from '../repositories/prompts';
import { companyTypes } from './company-types';

const DAY_MS = 86_400_000;
/** The range when none is given: the last 90 days, today included. */
const DEFAULT_DAYS = 90;
/** The CRM trend's months: this one and the five before. */
const TREND_MONTHS = 6;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const msOf = (day: string) => Date.parse(`${day}T00:00:00Z`);
const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
const field = (name: string, message: string) =>
  badRequest(`Invalid query.${name}: ${message}`, [{ field: `query.${name}`, message }]);

/** The first day of each period from `from` to `to` (UTC; weeks from Monday), so a chart shows empty periods too. */
export function periodsBetween(from: string, to: string, group: DashboardGroup): string[] {
  const start = new Date(msOf(from));
  if (group === 'week') start.setUTCDate(start.getUTCDate() - ((start.getUTCDay() + 6) % 7));
  if (group === 'month') start.setUTCDate(1);
  const periods: string[] = [];
  for (const at = start; at.getTime() <= msOf(to);) {
    periods.push(dayOf(at.getTime()));
    if (group === 'day') at.setUTCDate(at.getUTCDate() + 1);
    else if (group === 'week') at.setUTCDate(at.getUTCDate() + 7);
    else at.setUTCMonth(at.getUTCMonth() + 1);
  }
  return periods;
}

/**
 * The dashboards of a company's calls (README "Dashboards"): analytics, scorecards, the calls
 * behind a point, and the CRM view of clients. A member sees their own company (in a b2c company,
 * their own calls); the platform administrator names the company.
 */
export class DashboardService {
  constructor(private readonly ctx: ServiceContext<PromptConfig>) {}

  /** The company looked at: a member's own (another one named is a 404); the platform administrator's `companyId`. */
  private company(identity: Identity, companyId: string | undefined): string {
    if (identity.role === 'HOST_ADMIN') {
      if (!companyId) throw field('companyId', 'required for the platform administrator');
      return companyId;
    }
    if (!identity.companyId || (companyId && companyId !== identity.companyId)) throw notFound('Company');
    return identity.companyId;
  }

  private async scope(
    identity: Identity,
    query: { from?: string; to?: string; companyId?: string; agentId?: string; clientId?: string; tag?: string },
  ): Promise<repo.CallScope> {
    const companyId = this.company(identity, query.companyId);
    const to = query.to ?? dayOf(Date.now());
    const from = query.from ?? dayOf(msOf(to) - (DEFAULT_DAYS - 1) * DAY_MS);
    if (from > to) throw field('from', 'must not be after to');
    if ((msOf(to) - msOf(from)) / DAY_MS + 1 > DASHBOARD_RANGE_DAYS_MAX)
      throw field('to', `at most ${DASHBOARD_RANGE_DAYS_MAX} days after from`);
    const owner = await companyTypes.ownerScope(this.ctx.db, identity);
    return { companyId, from, to, agentId: query.agentId, clientId: query.clientId, tag: query.tag, owner };
  }

  async analytics(identity: Identity, query: AnalyticsQuery): Promise<AnalyticsDto> {
    const scope = await this.scope(identity, query);
    const db = this.ctx.db;
    const [series, talk, agents, clients, tags] = await Promise.all([
      repo.callSeries(db, scope, query.groupBy),
      repo.talkFigures(db, scope),
      repo.byAgent(db, scope),
      repo.byClient(db, scope),
      repo.byTag(db, scope),
    ]);
    const found = new Map(series.map((p) => [p.period, p]));
    return {
      calls: periodsBetween(scope.from, scope.to, query.groupBy).map((period) => ({
        period,
        count: found.get(period)?.count ?? 0,
        seconds: found.get(period)?.seconds ?? 0,
      })),
      talk,
      byAgent: agents,
      byClient: clients.map((row) => ({ ...row, lastCall: iso(row.lastCall) })),
      byTag: tags,
    };
  }

  async calls(identity: Identity, query: DashboardCallsQuery): Promise<DashboardCallsDto> {
    const { items, total } = await repo.callList(this.ctx.db, await this.scope(identity, query), query.limit);
    return { items: items.map(({ at, ...row }) => ({ ...row, date: at.toISOString() })), total };
  }

  /** The prompt (one the company may run) and its integer, option or boolean field. */
  private async scoredField(
    identity: Identity,
    companyId: string,
    promptId: string,
    name: string,
  ): Promise<FormatFieldDto> {
    const prompt = await findPrompt(this.ctx.db, promptId, {
      companyId,
      userId: identity.role === 'HOST_ADMIN' ? null : identity.userId,
    });
    if (!prompt) throw notFound('Prompt');
    const found = prompt.expectedFormat.find((f) => f.name === name);
    if (!found || !['integer', 'custom', 'boolean'].includes(found.type))
      throw field('field', 'must be an integer, custom (options) or boolean field of the prompt');
    return found;
  }

  async scorecards(identity: Identity, query: ScorecardQuery): Promise<ScorecardPoint[]> {
    const scope = await this.scope(identity, query);
    const format = await this.scoredField(identity, scope.companyId, query.promptId, query.field);
    const rows = await repo.scoreSeries(
      this.ctx.db,
      { ...scope, promptId: query.promptId, field: query.field },
      query.groupBy,
    );
    const byPeriod = new Map<string, typeof rows>();
    for (const row of rows) byPeriod.set(row.period, [...(byPeriod.get(row.period) ?? []), row]);
    return periodsBetween(scope.from, scope.to, query.groupBy).map((period) => {
      const mine = byPeriod.get(period) ?? [];
      const runs = mine.reduce((n, r) => n + r.runs, 0);
      if (format.type === 'integer') return { period, average: mine[0]?.average ?? null, runs };
      if (format.type === 'boolean') return { period, rate: mine[0]?.rate ?? null, runs };
      return {
        period,
        distribution: Object.fromEntries(mine.filter((r) => r.option !== null).map((r) => [r.option!, r.runs])),
        runs,
      };
    });
  }

  async crm(identity: Identity, query: CrmQuery): Promise<CrmDto> {
    const companyId = this.company(identity, query.companyId);
    if (Boolean(query.promptId) !== Boolean(query.field))
      throw field(query.promptId ? 'field' : 'promptId', 'promptId and field go together');
    const format =
      query.promptId && query.field ? await this.scoredField(identity, companyId, query.promptId, query.field) : null;
    const owner = await companyTypes.ownerScope(this.ctx.db, identity);
    const now = new Date();
    const months = Array.from({ length: TREND_MONTHS }, (_, i) =>
      dayOf(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (TREND_MONTHS - 1 - i), 1)),
    );
    const [clients, trends] = await Promise.all([
      repo.crmClients(this.ctx.db, companyId, owner),
      format
        ? repo.clientTrends(this.ctx.db, {
            companyId,
            promptId: query.promptId!,
            field: query.field!,
            from: months[0]!,
            owner,
          })
        : Promise.resolve([]),
    ]);
    const byKey = new Map<string, typeof trends>();
    for (const t of trends)
      byKey.set(`${t.clientId}|${t.period}`, [...(byKey.get(`${t.clientId}|${t.period}`) ?? []), t]);
    const trendOf = (clientId: string) =>
      format
        ? months.map((period) => {
            const mine = byKey.get(`${clientId}|${period}`) ?? [];
            if (format.type === 'integer') return { period, value: mine[0]?.average ?? null };
            if (format.type === 'boolean') return { period, value: mine[0]?.rate ?? null };
            // The answer given most; ties go to the first in the prompt's order of options.
            const order = format.options ?? [];
            const top = [...mine]
              .filter((t) => t.option !== null)
              .sort((a, b) => b.runs - a.runs || order.indexOf(a.option!) - order.indexOf(b.option!))[0];
            return { period, value: top?.option ?? null };
          })
        : [];
    return {
      items: clients.map((row) => ({ ...row, lastContact: iso(row.lastContact), trend: trendOf(row.clientId) })),
    };
  }
}
