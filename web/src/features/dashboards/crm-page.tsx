// /crm (ADMIN, CALLER; a HOST_ADMIN picks the company): the company's clients with their number of
// calls, last contact, open tasks and the trend of a chosen scorecard field over the last six
// months (prompt and field kept in the address). A client opens its profile, /client/{id}.
import { useMemo, type ReactElement } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { CrmDto } from '@earshot/contracts';
import { DataTable, type DataColumn } from '../../components/data-table';
import { buttonClass } from '../../components/form-parts';
import { PageHeading } from '../../components/page-heading';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { withParams } from '../../lib/search-params';
import { CompanyPicker, useCompanyScope } from './company-scope';
import { useCrmQuery, useDashboardPromptsQuery } from './dashboards-api';
import { formats } from './format';
import { catalogue } from './i18n';
import { chartedFields, ScorecardPickers } from './scorecard-section';
import { Sparkline } from './sparkline';

type Row = CrmDto['items'][number];
const NO_ROWS: Row[] = [];

export default function CrmPage(): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const scope = useCompanyScope();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const prompts = useDashboardPromptsQuery(scope.companyId, { skip: scope.waiting });
  const promptId = search.get('promptId') ?? undefined;
  const field = chartedFields(prompts.data?.items.find((prompt) => prompt._id === promptId)).find(
    (item) => item.name === search.get('field'),
  );
  const crm = useCrmQuery(
    { companyId: scope.companyId, promptId: field ? promptId : undefined, field: field?.name },
    { skip: scope.waiting },
  );
  const fmt = useMemo(() => formats(i18n.language, 'month'), [i18n.language]);

  const columns = useMemo<Array<DataColumn<Row>>>(
    () => [
      {
        id: 'name',
        header: t('dashboards.columns.client'),
        canHide: false,
        sortValue: (row) => row.name.toLowerCase(),
        cell: (row) => (
          <Link
            to={`/client/${encodeURIComponent(row.clientId)}`}
            className="font-medium text-brand-700 hover:underline dark:text-brand-300"
          >
            {row.name}
          </Link>
        ),
      },
      {
        id: 'organisation',
        header: t('dashboards.columns.organisation'),
        cell: (row) => row.organisation ?? '—',
        sortValue: (row) => row.organisation?.toLowerCase() ?? null,
      },
      {
        id: 'calls',
        header: t('dashboards.columns.calls'),
        cell: (row) => <span className="tabular-nums">{fmt.count(row.calls)}</span>,
        sortValue: (row) => row.calls,
      },
      {
        id: 'lastContact',
        header: t('dashboards.columns.lastContact'),
        cell: (row) => (row.lastContact ? <time dateTime={row.lastContact}>{fmt.day(row.lastContact)}</time> : '—'),
        sortValue: (row) => row.lastContact,
      },
      ...(field
        ? [
            {
              id: 'trend',
              header: t('dashboards.columns.trend', { name: field.name }),
              cell: (row: Row) => (
                <Sparkline
                  label={field.name}
                  format={field.type === 'boolean' ? fmt.percent : fmt.decimal}
                  points={row.trend.map((point) => ({ label: fmt.period(point.period), value: point.value }))}
                />
              ),
            },
          ]
        : []),
      {
        id: 'openTasks',
        header: t('dashboards.columns.openTasks'),
        cell: (row) => <span className="tabular-nums">{fmt.count(row.openTasks)}</span>,
        sortValue: (row) => row.openTasks,
      },
    ],
    [t, fmt, field],
  );

  return (
    <div>
      <PageHeading>{t('pages.crm')}</PageHeading>
      <p className="mb-6 max-w-3xl text-sm text-gray-600 dark:text-gray-400">{t('dashboards.crmIntro')}</p>
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
        {scope.host ? <CompanyPicker companyId={scope.companyId} clear={['promptId', 'field']} /> : null}
        {scope.waiting ? null : (
          <ScorecardPickers
            prompts={prompts.data?.items ?? []}
            promptId={promptId}
            field={field?.name}
            onChange={(changes) =>
              setSearch(withParams(search, changes as Record<string, string | null>), { replace: true })
            }
          />
        )}
      </div>
      {scope.waiting ? (
        <p className="text-sm text-gray-600 dark:text-gray-400" data-testid="pick-company-first">
          {t('dashboards.pickCompanyFirst')}
        </p>
      ) : (
        <DataTable
          label={t('pages.crm')}
          testId="crm-table"
          columns={columns}
          rows={crm.data?.items ?? NO_ROWS}
          rowId={(row) => row.clientId}
          loading={crm.isFetching && !crm.data}
          error={crm.error ? (errorMessage(crm.error) ?? t('dashboards.loadFailed')) : null}
          onRetry={() => void crm.refetch()}
          emptyText={t('dashboards.noClients')}
          rowActions={(row) => (
            <button
              type="button"
              className={buttonClass.row}
              onClick={() => void navigate(`/client/${encodeURIComponent(row.clientId)}`)}
              aria-label={t('dashboards.openClient', { name: row.name })}
              data-testid="open-client"
            >
              {t('dashboards.open')}
            </button>
          )}
        />
      )}
    </div>
  );
}
