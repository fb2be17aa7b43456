import { useCallback, useMemo, useState, type ReactElement } from 'react';
import { useCompanyOptionsQuery } from '../../entities/companies';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';
import { useSearchParams } from 'react-router-dom';
import { DataTable, type DataColumn } from '../../components/data-table';
import { PageHeading } from '../../components/page-heading';
import { ToastRegion, useToasts } from '../../components/toast';
import { errorMessage } from '../../lib/api';
import { useAuditLogInfiniteQuery, useLazyAuditExportCheckQuery } from './audit-logs-api';
import { AuditFiltersForm } from './audit-filters';
import { ChainState } from './chain-state';
import { EntryDrawer } from './entry-drawer';
import { TypeLabel } from './type-label';
import {
  exportUrl,
  filtersFromSearch,
  searchFromFilters,
  type AuditEntry,
  type AuditFilters,
  type ExportFormat,
} from './model';
import { formatDateTime } from '../../lib/format-time';

const NO_ENTRIES: AuditEntry[] = [];
const button =
  'rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm font-medium text-gray-700 hover:bg-gray-50 disabled:opacity-60 dark:border-gray-700 dark:bg-gray-900 dark:text-gray-200 dark:hover:bg-gray-800';

/** Starts a download the browser streams to disk (the server streams the export). */
function download(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  document.body.append(link);
  link.click();
  link.remove();
}

/** The target's type and the start of its id (the whole id is in the title and the drawer). */
function TargetCell({ type, id }: { type: string; id: string | null }): ReactElement {
  return (
    <span className="whitespace-nowrap" title={id ?? undefined}>
      {type}
      {id && (
        <span className="ml-1 font-mono text-xs text-gray-500 dark:text-gray-400">
          {id.length > 13 ? `${id.slice(0, 8)}…` : id}
        </span>
      )}
    </span>
  );
}

/** /audit-logs (HOST_ADMIN): the audit log, filtered, newest first, with detail and export. */
export default function AuditLogsPage(): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const [search, setSearch] = useSearchParams();
  const filters = useMemo(() => filtersFromSearch(search), [search]);
  const log = useAuditLogInfiniteQuery(filters);
  const companies = useCompanyOptionsQuery();
  const [checkExport, exportCheck] = useLazyAuditExportCheckQuery();
  const { toasts, show, dismiss } = useToasts();
  const [open, setOpen] = useState<AuditEntry | null>(null);

  const rows = useMemo(() => log.data?.pages.flatMap((page) => page.items) ?? NO_ENTRIES, [log.data]);
  const names = useMemo(
    () => new Map((companies.data ?? []).map((company) => [company._id, company.name])),
    [companies.data],
  );
  const companyName = useCallback(
    (id: string | null) => (id === null ? t('auditLog.platform') : (names.get(id) ?? id)),
    [names, t],
  );
  const when = useCallback((iso: string) => formatDateTime(iso, i18n.language, 'precise'), [i18n.language]);

  const columns = useMemo<Array<DataColumn<AuditEntry>>>(
    () => [
      {
        id: 'occurredAt',
        header: t('auditLog.columns.occurredAt'),
        cell: (e) => (
          <time dateTime={e.occurredAt} className="whitespace-nowrap">
            {when(e.occurredAt)}
          </time>
        ),
        sortValue: (e) => e.occurredAt,
        canHide: false,
      },
      {
        id: 'type',
        header: t('auditLog.columns.type'),
        cell: (e) => <TypeLabel type={e.type} />,
        sortValue: (e) => e.type,
        canHide: false,
      },
      {
        id: 'company',
        header: t('auditLog.columns.company'),
        cell: (e) => companyName(e.companyId),
        sortValue: (e) => companyName(e.companyId),
      },
      {
        id: 'actor',
        header: t('auditLog.columns.actor'),
        cell: (e) => <span className="whitespace-nowrap">{e.actor.email ?? e.actor.id ?? t('auditLog.system')}</span>,
        sortValue: (e) => e.actor.email ?? e.actor.id ?? '',
      },
      {
        id: 'target',
        header: t('auditLog.columns.target'),
        cell: (e) => <TargetCell type={e.target.type} id={e.target.id} />,
        sortValue: (e) => `${e.target.type} ${e.target.id ?? ''}`,
      },
    ],
    [t, when, companyName],
  );

  const apply = (next: AuditFilters) => setSearch(searchFromFilters(next));

  const startExport = async (format: ExportFormat) => {
    const check = await checkExport(filters);
    if (check.error) {
      show({ kind: 'error', title: t('auditLog.exportFailed'), detail: errorMessage(check.error) });
      return;
    }
    download(exportUrl(format, filters));
  };

  const loadError = log.error ? (errorMessage(log.error) ?? t('auditLog.loadFailed')) : null;

  return (
    <div>
      <PageHeading>{t('pages.auditLogs')}</PageHeading>
      {/* Keyed on the query: Back/Forward or a link replaces the form's draft with the URL's filters. */}
      <AuditFiltersForm key={search.toString()} value={filters} companies={companies.data ?? []} onApply={apply} />
      <ChainState companyId={filters.companyId ?? null} chainName={companyName(filters.companyId ?? null)} />
      <div className="mb-3 flex flex-wrap items-center gap-2">
        <p
          className="mr-auto w-full text-sm sm:w-auto text-gray-600 dark:text-gray-400"
          aria-live="polite"
          data-testid="audit-count"
        >
          {rows.length > 0
            ? t(log.hasNextPage ? 'auditLog.countMore' : 'auditLog.count', { shown: rows.length })
            : null}
        </p>
        <button
          type="button"
          className={button}
          disabled={exportCheck.isFetching}
          onClick={() => void startExport('csv')}
          data-testid="audit-export-csv"
        >
          {t('auditLog.exportCsv')}
        </button>
        <button
          type="button"
          className={button}
          disabled={exportCheck.isFetching}
          onClick={() => void startExport('jsonl')}
          data-testid="audit-export-jsonl"
        >
          {t('auditLog.exportJsonl')}
        </button>
      </div>
      <DataTable
        label={t('pages.auditLogs')}
        testId="audit-table"
        columns={columns}
        rows={rows}
        rowId={(entry) => entry._id}
        loading={log.isFetching && !log.isFetchingNextPage}
        error={loadError}
        onRetry={() => void log.refetch()}
        emptyText={t('auditLog.empty')}
        rowActions={(entry) => (
          <button
            type="button"
            onClick={() => setOpen(entry)}
            className="rounded-lg px-2 py-1 text-sm font-medium text-brand-700 hover:bg-brand-50 dark:text-brand-300 dark:hover:bg-gray-800"
            aria-label={t('auditLog.viewEntry', { type: entry.type })}
          >
            {t('auditLog.view')}
          </button>
        )}
        footer={
          log.hasNextPage ? (
            <button
              type="button"
              className={button}
              disabled={log.isFetchingNextPage}
              onClick={() => void log.fetchNextPage()}
              data-testid="audit-load-more"
            >
              {log.isFetchingNextPage ? t('common.loading') : t('auditLog.loadMore')}
            </button>
          ) : undefined
        }
      />
      <EntryDrawer entry={open} companyName={companyName} when={when} onClose={() => setOpen(null)} />
      <ToastRegion toasts={toasts} onDismiss={dismiss} closeLabel={t('auditLog.drawer.close')} />
    </div>
  );
}
