// /companies (HOST_ADMIN): every company with its limits and use; search, filters and pages run on
// the server. Deleting is asynchronous: the row shows "Deleting…" and the services still working
// until the company is gone, and the list refreshes itself meanwhile.
import { useCallback, useMemo, useState, type ReactElement } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type DataColumn } from '../../components/data-table';
import { HoldBadge } from '../../entities/holds';
import { buttonClass, inputClass } from '../../components/form-parts';
import { PageHeading } from '../../components/page-heading';
import { Pager } from '../../components/pager';
import { SearchForm } from '../../components/search-form';
import { ToastRegion, useToasts } from '../../components/toast';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { formatCredits } from '../../lib/credits-format';
import { formatSize } from '../../lib/format-size';
import { withParams } from '../../lib/search-params';
import { useCompaniesQuery, useDeleteCompanyMutation } from './companies-api';
import { CompanyDialog } from './company-dialog';
import { CreditsDialog } from './credits-dialog';
import { catalogue as creditsCatalogue } from './credits-i18n';
import { catalogue } from './i18n';
import {
  COMPANY_STATUSES,
  COMPANY_TYPES,
  type Company,
  type CompanyListArgs,
  type CompanyStatus,
  type CompanyType,
  type Notify,
} from './model';
import { formatDate } from '../../lib/format-time';

const PAGE_SIZE = 20;
/** How often the list is asked again while a company is being deleted. */
const DELETING_POLL_MS = 2000;
const NO_COMPANIES: Company[] = [];

function argsFrom(search: URLSearchParams): CompanyListArgs {
  const status = search.get('status');
  const type = search.get('type');
  return {
    q: search.get('q') ?? undefined,
    status: (COMPANY_STATUSES as readonly string[]).includes(status ?? '') ? (status as CompanyStatus) : undefined,
    type: (COMPANY_TYPES as readonly string[]).includes(type ?? '') ? (type as CompanyType) : undefined,
    page: Math.max(1, Number(search.get('page')) || 1),
    pageSize: PAGE_SIZE,
  };
}

export default function CompaniesPage(): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue, creditsCatalogue);
  const [search, setSearch] = useSearchParams();
  const args = useMemo(() => argsFrom(search), [search]);
  const [deletingSeen, setDeletingSeen] = useState(false);
  const list = useCompaniesQuery(args, {
    pollingInterval: deletingSeen ? DELETING_POLL_MS : 0,
    skipPollingIfUnfocused: false,
  });
  const rows = list.data?.items ?? NO_COMPANIES;
  const anyDeleting = rows.some((company) => company.status === 'deleting');
  if (anyDeleting !== deletingSeen) setDeletingSeen(anyDeleting);

  const [remove, removing] = useDeleteCompanyMutation();
  const [editing, setEditing] = useState<Company | null | 'new'>(null);
  const [toDelete, setToDelete] = useState<Company | null>(null);
  const [creditsOf, setCreditsOf] = useState<Company | null>(null);
  const { toasts, show, dismiss } = useToasts();
  const notify = useCallback<Notify>(
    (ok, title, detail) => show({ kind: ok ? 'success' : 'error', title, detail }),
    [show],
  );

  const columns = useMemo<Array<DataColumn<Company>>>(() => {
    const limit = (used: number | undefined, max: number | null, format: (n: number) => string) =>
      `${used === undefined ? '—' : format(used)} / ${max === null ? t('companies.unlimited') : format(max)}`;
    return [
      {
        id: 'name',
        header: t('companies.columns.name'),
        cell: (c) => (
          <>
            <span className="font-medium">{c.name}</span>
            {c.hold ? (
              <>
                {' '}
                <HoldBadge reason={c.hold.reason} at={c.hold.at} />
              </>
            ) : null}
          </>
        ),
        sortValue: (c) => c.name.toLowerCase(),
        canHide: false,
      },
      {
        id: 'code',
        header: t('companies.columns.code'),
        cell: (c) => <code className="text-xs">{c.code}</code>,
        sortValue: (c) => c.code,
      },
      { id: 'domain', header: t('companies.columns.domain'), cell: (c) => c.domain, sortValue: (c) => c.domain },
      {
        id: 'type',
        header: t('companies.columns.type'),
        cell: (c) => t(`companies.types.${c.type}`),
        sortValue: (c) => c.type,
      },
      {
        id: 'status',
        header: t('companies.columns.status'),
        cell: (c) => <StatusCell company={c} />,
        sortValue: (c) => c.status,
      },
      {
        id: 'users',
        header: t('companies.columns.users'),
        cell: (c) => <span className="whitespace-nowrap tabular-nums">{limit(c.userCount, c.maxUsers, String)}</span>,
        sortValue: (c) => c.userCount ?? null,
      },
      {
        id: 'storage',
        header: t('companies.columns.storage'),
        cell: (c) => (
          <span className="whitespace-nowrap tabular-nums">{limit(c.storageUsed, c.maxStorage, formatSize)}</span>
        ),
        sortValue: (c) => c.storageUsed ?? null,
      },
      {
        id: 'balance',
        header: t('credits.balance'),
        cell: (c) => (
          <span
            className={`whitespace-nowrap tabular-nums ${c.balance <= 0 ? 'text-red-700 dark:text-red-300' : ''}`}
            data-testid="company-balance"
          >
            {formatCredits(c.balance, i18n.language)}
          </span>
        ),
        sortValue: (c) => c.balance,
      },
      {
        id: 'language',
        header: t('companies.columns.language'),
        cell: (c) => t(`companies.languages.${c.language}`),
        sortValue: (c) => c.language,
      },
      {
        id: 'created',
        header: t('companies.columns.created'),
        cell: (c) => (
          <time dateTime={c.createdAt} className="whitespace-nowrap">
            {formatDate(c.createdAt, i18n.language)}
          </time>
        ),
        sortValue: (c) => c.createdAt,
      },
    ];
  }, [t, i18n.language]);

  const update = (changes: Record<string, string | null>) => setSearch(withParams(search, changes));

  const confirmDelete = async () => {
    if (!toDelete) return;
    const answer = await remove(toDelete._id);
    setToDelete(null);
    if ('error' in answer) notify(false, t('companies.deleteFailed'), errorMessage(answer.error));
    else notify(true, t('companies.deleteStarted'));
  };

  const totalPages = Math.max(1, list.data?.totalPages ?? 1);
  const select = `${inputClass} pr-8 sm:w-44`;
  return (
    <div>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <PageHeading>{t('pages.companies')}</PageHeading>
        <button
          type="button"
          className={buttonClass.primary}
          onClick={() => setEditing('new')}
          data-testid="company-add"
        >
          {t('companies.add')}
        </button>
      </div>
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <SearchForm
          label={t('companies.search')}
          placeholder={t('companies.searchHint')}
          value={args.q ?? ''}
          applyLabel={t('companies.apply')}
          onSearch={(q) => update({ q: q || null, page: null })}
        />
        <label>
          <span className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">
            {t('companies.status')}
          </span>
          <select
            className={select}
            value={args.status ?? ''}
            onChange={(event) => update({ status: event.target.value || null, page: null })}
          >
            <option value="">{t('companies.all')}</option>
            {COMPANY_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`companies.statuses.${status}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">
            {t('companies.type')}
          </span>
          <select
            className={select}
            value={args.type ?? ''}
            onChange={(event) => update({ type: event.target.value || null, page: null })}
          >
            <option value="">{t('companies.all')}</option>
            {COMPANY_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`companies.types.${type}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <DataTable
        label={t('pages.companies')}
        testId="companies-table"
        columns={columns}
        rows={rows}
        rowId={(company) => company._id}
        loading={list.isFetching}
        error={list.error ? (errorMessage(list.error) ?? t('companies.loadFailed')) : null}
        onRetry={() => void list.refetch()}
        emptyText={t('companies.empty')}
        initiallyHidden={['code', 'language']}
        rowActions={(company) =>
          company.status === 'deleting' ? null : (
            <span className="inline-flex gap-1">
              <button
                type="button"
                className={buttonClass.row}
                onClick={() => setCreditsOf(company)}
                aria-label={t('credits.openFor', { name: company.name })}
              >
                {t('credits.open')}
              </button>
              <button
                type="button"
                className={buttonClass.row}
                onClick={() => setEditing(company)}
                aria-label={t('companies.editName', { name: company.name })}
              >
                {t('companies.edit')}
              </button>
              <button
                type="button"
                className={buttonClass.danger}
                onClick={() => setToDelete(company)}
                aria-label={t('companies.deleteName', { name: company.name })}
              >
                {t('companies.delete')}
              </button>
            </span>
          )
        }
        footer={
          <Pager
            page={args.page}
            totalPages={totalPages}
            info={t('companies.pageOf', { page: args.page, total: totalPages })}
            previous={t('companies.previous')}
            next={t('companies.next')}
            onPage={(n) => update({ page: String(n) })}
          />
        }
      />
      {creditsOf && <CreditsDialog company={creditsOf} onClose={() => setCreditsOf(null)} notify={notify} />}
      {editing && (
        <CompanyDialog company={editing === 'new' ? null : editing} onClose={() => setEditing(null)} notify={notify} />
      )}
      <ConfirmDialog
        open={toDelete !== null}
        message={t('companies.confirmDelete')}
        confirmLabel={t('companies.delete')}
        cancelLabel={t('companies.cancel')}
        busy={removing.isLoading}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setToDelete(null)}
      />
      <ToastRegion toasts={toasts} onDismiss={dismiss} closeLabel={t('companies.close')} />
    </div>
  );
}

function StatusCell({ company }: { company: Company }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const tone = {
    active: 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200',
    inactive: 'bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-300',
    suspended: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
    deleting: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200',
  }[company.status];
  return (
    <span className="whitespace-nowrap">
      <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${tone}`} data-testid="company-status">
        {t(`companies.statuses.${company.status}`)}
      </span>
      {company.status === 'deleting' && company.pendingServices?.length ? (
        <span className="mt-1 block text-xs text-gray-500 dark:text-gray-400">
          {t('companies.pending', { services: company.pendingServices.join(', ') })}
        </span>
      ) : null}
    </span>
  );
}
