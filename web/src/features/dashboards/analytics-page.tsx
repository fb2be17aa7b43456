// /analytics (every role; a HOST_ADMIN picks the company): calls and hours per period, the talk
// figures, a scorecard field over time, and the breakdowns by agent, client and tag, each with its
// CSV. Every point and row opens the calls behind it. Filters live in the address (filters.ts).
import { useCallback, useMemo, useRef, useState, type ReactElement } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { AnalyticsDto } from '@earshot/contracts';
import { PageHeading } from '../../components/page-heading';
import { PageSpinner } from '../../components/spinner';
import { Alert } from '../../components/text-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { mayReadClients, useClientOptionsQuery, useTagsQuery } from '../../entities/recordings';
import { withParams } from '../../lib/search-params';
import { useAppSelector } from '../../lib/store';
import { roleOf } from '../../lib/stored-user';
import { AnalyticsFilters, type Choice, type FilterChoices } from './analytics-filters';
import { BreakdownTable, type BreakdownColumn } from './breakdown-table';
import { CallsDrawer, type CallsTarget } from './calls-drawer';
import { ChartFigure } from './chart-figure';
import { CompanyPicker, useCompanyScope } from './company-scope';
import { useAnalyticsQuery } from './dashboards-api';
import { filtersFromParams, periodRange, todayUtc, type DashboardFilters } from './filters';
import { formats, timeUnit, type Formats } from './format';
import { catalogue } from './i18n';
import { ScorecardSection } from './scorecard-section';
import { TalkTiles, Tile } from './talk-tiles';

type Agent = AnalyticsDto['byAgent'][number];
type Client = AnalyticsDto['byClient'][number];
type TagRow = AnalyticsDto['byTag'][number];

/**
 * Choices seen in earlier answers stay offered: a filtered answer names only the chosen agent.
 * Another company (a HOST_ADMIN's pick) starts afresh.
 */
function useRemembered(current: Choice[], companyId: string | undefined): Choice[] {
  const seen = useRef({ companyId, names: new Map<string, string>() });
  if (seen.current.companyId !== companyId) seen.current = { companyId, names: new Map() };
  for (const choice of current) seen.current.names.set(choice.id, choice.name);
  return [...seen.current.names].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
}

function useChoices(
  data: AnalyticsDto | undefined,
  { companyId, waiting }: { companyId: string | undefined; waiting: boolean },
): FilterChoices {
  const role = useAppSelector((state) => roleOf(state.session.user));
  const tags = useTagsQuery(companyId, { skip: waiting });
  const readsClients = mayReadClients(role);
  const clients = useClientOptionsQuery(companyId, { skip: waiting || !readsClients });
  const agents = useRemembered(
    useMemo(() => (data?.byAgent ?? []).map((row) => ({ id: row.agentId, name: row.name })), [data]),
    companyId,
  );
  const named = useRemembered(
    useMemo(() => (data?.byClient ?? []).map((row) => ({ id: row.clientId, name: row.name })), [data]),
    companyId,
  );
  return {
    agents,
    clients:
      readsClients && clients.data ? clients.data.map((client) => ({ id: client._id, name: client.name })) : named,
    tags: (tags.data ?? []).map((tag) => tag.name),
  };
}

function agentColumns(t: (key: string) => string, fmt: Formats): Array<BreakdownColumn<Agent>> {
  return [
    {
      id: 'name',
      header: t('dashboards.columns.agent'),
      cell: (row) => row.name,
      sortValue: (row) => row.name.toLowerCase(),
      csv: (row) => row.name,
      canHide: false,
    },
    {
      id: 'count',
      header: t('dashboards.columns.calls'),
      cell: (row) => fmt.count(row.count),
      sortValue: (row) => row.count,
      csv: (row) => row.count,
    },
    {
      id: 'duration',
      header: t('dashboards.columns.duration'),
      cell: (row) => fmt.duration(row.seconds),
      sortValue: (row) => row.seconds,
      csv: (row) => row.seconds,
      csvHeader: t('dashboards.columns.seconds'),
    },
    {
      id: 'talkShare',
      header: t('dashboards.columns.talkShare'),
      cell: (row) => (row.talkShare === null ? '—' : fmt.percent(row.talkShare)),
      sortValue: (row) => row.talkShare,
      csv: (row) => row.talkShare,
    },
    {
      id: 'wpm',
      header: t('dashboards.columns.wordsPerMinute'),
      cell: (row) => (row.wordsPerMinute === null ? '—' : fmt.decimal(row.wordsPerMinute)),
      sortValue: (row) => row.wordsPerMinute,
      csv: (row) => row.wordsPerMinute,
    },
  ];
}

function clientColumns(t: (key: string) => string, fmt: Formats): Array<BreakdownColumn<Client>> {
  return [
    {
      id: 'name',
      header: t('dashboards.columns.client'),
      cell: (row) => row.name,
      sortValue: (row) => row.name.toLowerCase(),
      csv: (row) => row.name,
      canHide: false,
    },
    {
      id: 'count',
      header: t('dashboards.columns.calls'),
      cell: (row) => fmt.count(row.count),
      sortValue: (row) => row.count,
      csv: (row) => row.count,
    },
    {
      id: 'duration',
      header: t('dashboards.columns.duration'),
      cell: (row) => fmt.duration(row.seconds),
      sortValue: (row) => row.seconds,
      csv: (row) => row.seconds,
      csvHeader: t('dashboards.columns.seconds'),
    },
    {
      id: 'lastCall',
      header: t('dashboards.columns.lastCall'),
      cell: (row) => (row.lastCall ? fmt.day(row.lastCall) : '—'),
      sortValue: (row) => row.lastCall,
      csv: (row) => row.lastCall,
    },
  ];
}

function tagColumns(t: (key: string) => string, fmt: Formats): Array<BreakdownColumn<TagRow>> {
  return [
    {
      id: 'tag',
      header: t('dashboards.columns.tag'),
      cell: (row) => row.tag,
      sortValue: (row) => row.tag,
      csv: (row) => row.tag,
      canHide: false,
    },
    {
      id: 'count',
      header: t('dashboards.columns.calls'),
      cell: (row) => fmt.count(row.count),
      sortValue: (row) => row.count,
      csv: (row) => row.count,
    },
    {
      id: 'duration',
      header: t('dashboards.columns.duration'),
      cell: (row) => fmt.duration(row.seconds),
      sortValue: (row) => row.seconds,
      csv: (row) => row.seconds,
      csvHeader: t('dashboards.columns.seconds'),
    },
  ];
}

function Figures({
  data,
  filters,
  fmt,
  open,
}: {
  data: AnalyticsDto;
  filters: DashboardFilters;
  fmt: Formats;
  open: (title: string, narrow: Partial<DashboardFilters>) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const labels = useMemo(() => data.calls.map((point) => fmt.period(point.period)), [data, fmt]);
  const counts = useMemo(
    () => [{ label: t('dashboards.columns.calls'), values: data.calls.map((point) => point.count) }],
    [data, t],
  );
  const { unit, divisor } = timeUnit(data.calls.map((point) => point.seconds));
  const time = useMemo(
    () => [{ label: t(`dashboards.columns.${unit}`), values: data.calls.map((point) => point.seconds / divisor) }],
    [data, t, unit, divisor],
  );
  const openPeriod = useCallback(
    (index: number) => {
      const point = data.calls[index];
      if (point)
        open(t('dashboards.callsOfPeriod', { period: fmt.period(point.period) }), periodRange(point.period, filters));
    },
    [data, filters, fmt, open, t],
  );
  const total = data.calls.reduce(
    (sum, point) => ({ count: sum.count + point.count, seconds: sum.seconds + point.seconds }),
    { count: 0, seconds: 0 },
  );
  const empty = total.count === 0;
  const stamp = `${filters.from}_${filters.to}`;
  return (
    <>
      <dl className="mb-6 grid grid-cols-2 gap-3 sm:max-w-md">
        <Tile label={t('dashboards.totalCalls')} value={fmt.count(total.count)} testId="total-calls" />
        <Tile label={t('dashboards.totalTime')} value={fmt.duration(total.seconds)} testId="total-time" />
      </dl>
      <div className="mb-6 grid gap-4 lg:grid-cols-2">
        <ChartFigure
          title={t('dashboards.callsPerPeriod')}
          testId="calls-chart"
          column={t('dashboards.period')}
          kind="bar"
          labels={labels}
          series={counts}
          format={fmt.count}
          integer
          onOpen={openPeriod}
          empty={empty}
          emptyText={t('dashboards.noCalls')}
        />
        <ChartFigure
          title={t(`dashboards.${unit}PerPeriod`)}
          testId="time-chart"
          column={t('dashboards.period')}
          kind="line"
          labels={labels}
          series={time}
          format={fmt.fine}
          onOpen={openPeriod}
          empty={empty}
          emptyText={t('dashboards.noCalls')}
        />
      </div>
      <TalkTiles talk={data.talk} fmt={fmt} />
      <ScorecardSectionInPage filters={filters} fmt={fmt} open={open} />
      <div className="grid gap-6 2xl:grid-cols-2">
        <div className="min-w-0 2xl:col-span-2">
          <BreakdownTable
            title={t('dashboards.byAgent')}
            testId="by-agent"
            columns={agentColumns(t, fmt)}
            rows={data.byAgent}
            rowId={(row) => row.agentId}
            rowName={(row) => row.name}
            fileName={`calls-by-agent_${stamp}.csv`}
            onOpen={(row) => open(t('dashboards.callsOf', { name: row.name }), { agentId: row.agentId })}
          />
        </div>
        <BreakdownTable
          title={t('dashboards.byClient')}
          testId="by-client"
          columns={clientColumns(t, fmt)}
          rows={data.byClient}
          rowId={(row) => row.clientId}
          rowName={(row) => row.name}
          fileName={`calls-by-client_${stamp}.csv`}
          onOpen={(row) => open(t('dashboards.callsOf', { name: row.name }), { clientId: row.clientId })}
        />
        <BreakdownTable
          title={t('dashboards.byTag')}
          testId="by-tag"
          columns={tagColumns(t, fmt)}
          rows={data.byTag}
          rowId={(row) => row.tag}
          rowName={(row) => row.tag}
          fileName={`calls-by-tag_${stamp}.csv`}
          onOpen={(row) => open(t('dashboards.callsOf', { name: row.tag }), { tag: row.tag })}
        />
      </div>
    </>
  );
}

/** The scorecard's prompt and field are in the address too (?promptId=&field=). */
function ScorecardSectionInPage({
  filters,
  fmt,
  open,
}: {
  filters: DashboardFilters;
  fmt: Formats;
  open: (title: string, narrow: Partial<DashboardFilters>) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [search, setSearch] = useSearchParams();
  const onOpen = useCallback(
    (period: string) =>
      open(t('dashboards.callsOfPeriod', { period: fmt.period(period) }), periodRange(period, filters)),
    [open, t, fmt, filters],
  );
  return (
    <ScorecardSection
      filters={filters}
      fmt={fmt}
      promptId={search.get('promptId') ?? undefined}
      field={search.get('field') ?? undefined}
      onPick={(changes) => setSearch(withParams(search, changes as Record<string, string | null>), { replace: true })}
      onOpen={onOpen}
    />
  );
}

export default function AnalyticsPage(): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const scope = useCompanyScope();
  const [search, setSearch] = useSearchParams();
  const today = todayUtc();
  const filters = useMemo(
    () => ({ ...filtersFromParams(search, today), companyId: scope.companyId }),
    [search, today, scope.companyId],
  );
  const analytics = useAnalyticsQuery(filters, { skip: scope.waiting });
  const choices = useChoices(analytics.data, scope);
  const fmt = useMemo(() => formats(i18n.language, filters.groupBy), [i18n.language, filters.groupBy]);
  const [target, setTarget] = useState<CallsTarget | null>(null);
  const open = useCallback(
    (title: string, narrow: Partial<DashboardFilters>) => {
      const { groupBy: _groupBy, ...query } = { ...filters, ...narrow };
      setTarget({ title, query });
    },
    [filters],
  );

  return (
    <div>
      <PageHeading>{t('pages.analytics')}</PageHeading>
      <p className="mb-6 max-w-3xl text-sm text-gray-600 dark:text-gray-400">{t('dashboards.analyticsIntro')}</p>
      {scope.host ? (
        <div className="mb-4">
          <CompanyPicker companyId={scope.companyId} clear={['agentId', 'clientId', 'tag', 'promptId', 'field']} />
        </div>
      ) : null}
      <AnalyticsFilters
        filters={filters}
        choices={choices}
        onChange={(changes) => setSearch(withParams(search, changes))}
      />
      {scope.waiting ? (
        <p className="text-sm text-gray-600 dark:text-gray-400" data-testid="pick-company-first">
          {t('dashboards.pickCompanyFirst')}
        </p>
      ) : analytics.error ? (
        <Alert>{errorMessage(analytics.error) ?? t('dashboards.loadFailed')}</Alert>
      ) : !analytics.data ? (
        <PageSpinner label={t('common.loading')} />
      ) : (
        <Figures data={analytics.data} filters={filters} fmt={fmt} open={open} />
      )}
      <CallsDrawer target={target} onClose={() => setTarget(null)} />
    </div>
  );
}
