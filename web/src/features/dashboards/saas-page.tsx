// /saas (HOST_ADMIN): the platform at a glance — companies by status, people active within 30
// days, each company's users, storage against its limit and this month's transcription hours and
// credits, the last 12 months of use, and this month's largest users. A company's name opens it
// on /companies; its row links to its analytics and usage.
import { useCallback, useMemo, type ReactElement } from 'react';
import { Link } from 'react-router-dom';
import type { SaasDto } from '@earshot/contracts';
import { DataTable, type DataColumn } from '../../components/data-table';
import { PageHeading } from '../../components/page-heading';
import { PageSpinner } from '../../components/spinner';
import { Alert } from '../../components/text-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { formatCredits } from '../../lib/credits-format';
import { formatSize } from '../../lib/format-size';
import { ChartFigure } from './chart-figure';
import { useSaasQuery } from './dashboards-api';
import { formats, timeUnit, type Formats } from './format';
import { catalogue } from './i18n';
import { Tile } from './talk-tiles';

type Company = SaasDto['companies'][number];
const link = 'font-medium text-brand-700 hover:underline dark:text-brand-300';

/** The last 12 months (YYYY-MM, UTC), oldest first, ending with `now`'s. */
export function lastMonths(now: Date, count = 12): string[] {
  return Array.from({ length: count }, (_, index) =>
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (count - 1 - index), 1)).toISOString().slice(0, 7),
  );
}

/** The platform's use per month: every company's summed. */
export function monthlyTotals(monthly: SaasDto['monthly'], months: string[]): { credits: number[]; seconds: number[] } {
  const sum = (month: string, key: 'credits' | 'transcriptionSeconds') =>
    monthly.filter((row) => row.month === month).reduce((total, row) => total + row[key], 0);
  return {
    credits: months.map((month) => sum(month, 'credits')),
    seconds: months.map((month) => sum(month, 'transcriptionSeconds')),
  };
}

function companyLink(company: { companyId: string; name: string }): ReactElement {
  return (
    <Link to={`/companies?q=${encodeURIComponent(company.name)}`} className={link}>
      {company.name}
    </Link>
  );
}

function StorageBar({ used, limit }: { used: number; limit: number | null }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const share = limit ? Math.min(1, used / limit) : null;
  const tone = share === null ? '' : share >= 0.9 ? 'bg-red-600' : share >= 0.75 ? 'bg-amber-500' : 'bg-brand-600';
  const text = `${formatSize(used)} / ${limit === null ? t('dashboards.saas.noLimit') : formatSize(limit)}`;
  return (
    <span className="block min-w-24">
      <span className="text-xs whitespace-nowrap tabular-nums">{text}</span>
      {share === null ? null : (
        <span
          role="meter"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(share * 100)}
          aria-label={t('dashboards.saas.storageOf', { text })}
          className="mt-1 block h-1.5 w-full rounded-full bg-gray-200 dark:bg-gray-700"
        >
          <span className={`block h-1.5 rounded-full ${tone}`} style={{ width: `${(share * 100).toFixed(1)}%` }} />
        </span>
      )}
    </span>
  );
}

function companyColumns(t: (key: string) => string, fmt: Formats, language: string): Array<DataColumn<Company>> {
  return [
    {
      id: 'name',
      header: t('dashboards.saas.columns.company'),
      cell: companyLink,
      sortValue: (row) => row.name.toLowerCase(),
      canHide: false,
    },
    {
      id: 'status',
      header: t('dashboards.saas.columns.status'),
      cell: (row) => t(`dashboards.saas.statuses.${row.status}`),
      sortValue: (row) => row.status,
    },
    {
      id: 'users',
      header: t('dashboards.saas.columns.users'),
      cell: (row) => fmt.count(row.users),
      sortValue: (row) => row.users,
    },
    {
      id: 'activeUsers',
      header: t('dashboards.saas.columns.activeUsers'),
      cell: (row) => fmt.count(row.activeUsers),
      sortValue: (row) => row.activeUsers,
    },
    {
      id: 'storage',
      header: t('dashboards.saas.columns.storage'),
      cell: (row) => <StorageBar used={row.storageBytes} limit={row.maxStorageBytes} />,
      sortValue: (row) => row.storageBytes,
    },
    {
      id: 'time',
      header: t('dashboards.saas.columns.time'),
      cell: (row) => fmt.duration(row.transcriptionSeconds),
      sortValue: (row) => row.transcriptionSeconds,
    },
    {
      id: 'credits',
      header: t('dashboards.saas.columns.credits'),
      cell: (row) => formatCredits(row.credits, language),
      sortValue: (row) => row.credits,
    },
  ];
}

function TopCompanies({ top, fmt, language }: { top: SaasDto['top']; fmt: Formats; language: string }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const most = Math.max(...top.map((row) => row.credits), 0);
  return (
    <section
      aria-labelledby="top-heading"
      className="rounded-2xl border border-gray-200 bg-white p-4 dark:border-gray-800 dark:bg-gray-900"
      data-testid="saas-top"
    >
      <h2 id="top-heading" className="mb-3 font-semibold text-gray-900 dark:text-white">
        {t('dashboards.saas.top')}
      </h2>
      {top.length === 0 ? (
        <p className="text-sm text-gray-600 dark:text-gray-400">{t('dashboards.saas.noUse')}</p>
      ) : (
        <ol className="space-y-3">
          {top.map((row) => (
            <li key={row.companyId} className="text-sm" data-testid="saas-top-row">
              <span className="flex flex-wrap justify-between gap-2">
                {companyLink(row)}
                <span className="tabular-nums">
                  {t('dashboards.saas.creditsTime', {
                    credits: formatCredits(row.credits, language),
                    time: fmt.duration(row.transcriptionSeconds),
                  })}
                </span>
              </span>
              <span
                aria-hidden="true"
                className="mt-1 block h-1.5 rounded-full bg-brand-500"
                style={{ width: `${most ? Math.max(2, (row.credits / most) * 100) : 0}%` }}
              />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function Overview({ data }: { data: SaasDto }): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const fmt = useMemo(() => formats(i18n.language, 'month'), [i18n.language]);
  const months = useMemo(() => lastMonths(new Date()), []);
  const totals = useMemo(() => monthlyTotals(data.monthly, months), [data.monthly, months]);
  const labels = useMemo(() => months.map((month) => fmt.period(`${month}-01`)), [months, fmt]);
  const credits = useMemo(() => [{ label: t('dashboards.saas.columns.credits'), values: totals.credits }], [totals, t]);
  const { unit, divisor } = timeUnit(totals.seconds);
  const time = useMemo(
    () => [{ label: t(`dashboards.columns.${unit}`), values: totals.seconds.map((seconds) => seconds / divisor) }],
    [totals, t, unit, divisor],
  );
  const creditFormat = useCallback((value: number) => formatCredits(value, i18n.language), [i18n.language]);
  const columns = useMemo(() => companyColumns(t, fmt, i18n.language), [t, fmt, i18n.language]);
  return (
    <>
      <dl className="mb-6 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" data-testid="saas-statuses">
        <Tile
          label={t('dashboards.saas.activeUsers')}
          value={fmt.count(data.activeUsers)}
          hint={t('dashboards.saas.activeUsersHint')}
          testId="saas-active-users"
        />
        {data.statuses.map((row) => (
          <Tile
            key={row.status}
            label={t(`dashboards.saas.statuses.${row.status}`)}
            value={fmt.count(row.count)}
            hint={t('dashboards.saas.companies')}
            testId={`saas-status-${row.status}`}
          />
        ))}
      </dl>
      <div className="mb-6 grid gap-4 lg:grid-cols-3">
        <ChartFigure
          title={t('dashboards.saas.creditsPerMonth')}
          testId="saas-credits-chart"
          column={t('dashboards.saas.month')}
          kind="bar"
          labels={labels}
          series={credits}
          format={creditFormat}
          empty={totals.credits.every((value) => value === 0)}
          emptyText={t('dashboards.saas.noUse')}
        />
        <ChartFigure
          title={t(`dashboards.saas.${unit}PerMonth`)}
          testId="saas-time-chart"
          column={t('dashboards.saas.month')}
          kind="bar"
          labels={labels}
          series={time}
          format={fmt.fine}
          empty={totals.seconds.every((value) => value === 0)}
          emptyText={t('dashboards.saas.noUse')}
        />
        <TopCompanies top={data.top} fmt={fmt} language={i18n.language} />
      </div>
      <h2 className="mb-2 text-lg font-semibold text-gray-900 dark:text-white">{t('dashboards.saas.perCompany')}</h2>
      <DataTable
        label={t('dashboards.saas.perCompany')}
        testId="saas-companies"
        columns={columns}
        rows={data.companies}
        rowId={(row) => row.companyId}
        emptyText={t('dashboards.saas.noCompanies')}
        rowActions={(row) => (
          <span className="inline-flex gap-1">
            <Link
              to={`/analytics?companyId=${encodeURIComponent(row.companyId)}`}
              className="rounded-lg px-2.5 py-1 text-xs font-medium text-brand-800 hover:bg-brand-50 dark:text-brand-200 dark:hover:bg-brand-900/40"
              aria-label={t('dashboards.saas.analyticsOf', { name: row.name })}
            >
              {t('dashboards.saas.analytics')}
            </Link>
            <Link
              to={`/usage?companyId=${encodeURIComponent(row.companyId)}`}
              className="rounded-lg px-2.5 py-1 text-xs font-medium text-brand-800 hover:bg-brand-50 dark:text-brand-200 dark:hover:bg-brand-900/40"
              aria-label={t('dashboards.saas.usageOf', { name: row.name })}
            >
              {t('dashboards.saas.usage')}
            </Link>
          </span>
        )}
      />
    </>
  );
}

export default function SaasPage(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const saas = useSaasQuery();
  return (
    <div>
      <PageHeading>{t('pages.saas')}</PageHeading>
      <p className="mb-6 max-w-3xl text-sm text-gray-600 dark:text-gray-400">{t('dashboards.saas.intro')}</p>
      {saas.error ? (
        <Alert>{errorMessage(saas.error) ?? t('dashboards.loadFailed')}</Alert>
      ) : !saas.data ? (
        <PageSpinner label={t('common.loading')} />
      ) : (
        <Overview data={saas.data} />
      )}
    </div>
  );
}
