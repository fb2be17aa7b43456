import { useMemo, useState, type FormEvent, type ReactElement } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { ClientDto } from '@earshot/contracts';
import { useCompanyOptionsQuery } from '../../entities/companies';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { HoldBadge } from '../../entities/holds';
import { DataTable, type DataColumn } from '../../components/data-table';
import { DropdownMenu } from '../../components/dropdown-menu';
import { FormDialog, submitButtonClass } from '../../components/form-dialog';
import { fieldInputClass } from '../../components/form-field';
import { PageHeading } from '../../components/page-heading';
import { usePrivacyActions } from '../../entities/people';
import { Pager } from '../../components/pager';
import { useRedactedNotice } from '../../components/redacted-notice';
import { ToastRegion, useToasts } from '../../components/toast';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { useAppSelector } from '../../lib/store';
import { roleOf } from '../../lib/stored-user';
import { ClientForm } from './client-form';
import { useClientsQuery, useDeleteClientMutation, useOwnersQuery, type ClientFilters } from './clients-api';
import { catalogue } from './i18n';

const NO_CLIENTS: ClientDto[] = [];
const filterLabel = 'flex flex-col gap-1 text-xs font-medium text-gray-600 dark:text-gray-400';

/** /clients: the company's clients (ADMIN, CALLER); a HOST_ADMIN reads any company's, changing none. */
export default function ClientsPage(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const navigate = useNavigate();
  const role = useAppSelector((state) => roleOf(state.session.user));
  const readOnly = role === 'HOST_ADMIN';
  const [filters, setFilters] = useState<ClientFilters>({ page: 1 });
  const [search, setSearch] = useState('');
  const list = useClientsQuery(filters);
  const owners = useOwnersQuery(filters.companyId, { skip: role === 'CALLER' });
  const companies = useCompanyOptionsQuery(undefined, { skip: !readOnly });
  const [remove, removing] = useDeleteClientMutation();
  const { toasts, show, dismiss } = useToasts();
  const redactedNotice = useRedactedNotice();
  const [editing, setEditing] = useState<ClientDto | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ClientDto | null>(null);
  const privacy = usePrivacyActions();

  const ownerNames = useMemo(() => new Map((owners.data ?? []).map((owner) => [owner._id, owner.name])), [owners.data]);
  const ownerOf = (client: ClientDto) => (client.ownerId ? (ownerNames.get(client.ownerId) ?? null) : null);
  const columns: Array<DataColumn<ClientDto>> = [
    {
      id: 'name',
      header: t('clients.columns.name'),
      cell: (c) => (
        <>
          <Link to={`/client/${c._id}`} className="font-medium text-brand-700 hover:underline dark:text-brand-300">
            {c.name}
          </Link>
          {c.hold ? (
            <>
              {' '}
              <HoldBadge reason={c.hold.reason} at={c.hold.at} />
            </>
          ) : null}
        </>
      ),
      sortValue: (c) => c.name,
      canHide: false,
    },
    {
      id: 'organisation',
      header: t('clients.columns.organisation'),
      cell: (c) => c.organisation ?? '',
      sortValue: (c) => c.organisation,
    },
    { id: 'email', header: t('clients.columns.email'), cell: (c) => c.email ?? '', sortValue: (c) => c.email },
    {
      id: 'phone',
      header: t('clients.columns.phone'),
      cell: (c) => <span className="whitespace-nowrap">{c.phone ?? ''}</span>,
      sortValue: (c) => c.phone,
    },
    {
      id: 'externalId',
      header: t('clients.columns.externalId'),
      cell: (c) => <code className="text-xs">{c.externalId ?? ''}</code>,
      sortValue: (c) => c.externalId,
    },
    // A CALLER may not list users: the owner column has no names to show them.
    ...(owners.data
      ? [
          {
            id: 'owner',
            header: t('clients.columns.owner'),
            cell: (c: ClientDto) => ownerOf(c) ?? '',
            sortValue: ownerOf,
          },
        ]
      : []),
  ];

  const applySearch = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ ...filters, search: search.trim() || undefined, page: 1 });
  };
  const onDelete = async () => {
    if (!deleting) return;
    try {
      await remove(deleting._id).unwrap();
      show({ kind: 'success', title: t('clients.toast.deleted') });
    } catch (error) {
      show({ kind: 'error', title: t('clients.toast.failed'), detail: errorMessage(error) });
    }
    setDeleting(null);
  };
  const failed = (error: unknown) =>
    show({ kind: 'error', title: t('clients.toast.failed'), detail: errorMessage(error) });
  const page = list.data;

  return (
    <div>
      <div className="mb-2 flex flex-wrap items-start justify-between gap-4">
        <PageHeading>{t('pages.clients')}</PageHeading>
        {!readOnly && (
          <button
            type="button"
            className={submitButtonClass}
            onClick={() => setEditing('new')}
            data-testid="add-client"
          >
            {t('clients.create')}
          </button>
        )}
      </div>
      {readOnly && <p className="mb-3 text-sm text-gray-600 dark:text-gray-400">{t('clients.readOnly')}</p>}
      <form
        role="search"
        aria-label={t('clients.filters')}
        onSubmit={applySearch}
        className="mb-4 grid grid-cols-1 gap-3 sm:grid-cols-2"
      >
        <label className={filterLabel}>
          {t('clients.search')}
          <input
            type="search"
            className={fieldInputClass}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            onBlur={applySearch}
          />
        </label>
        {readOnly && (
          <label className={filterLabel}>
            {t('clients.company')}
            <select
              className={fieldInputClass}
              value={filters.companyId ?? ''}
              onChange={(event) => setFilters({ ...filters, companyId: event.target.value || undefined, page: 1 })}
            >
              <option value="">{t('clients.allCompanies')}</option>
              {(companies.data ?? []).map((company) => (
                <option key={company._id} value={company._id}>
                  {company.name}
                </option>
              ))}
            </select>
          </label>
        )}
      </form>
      <DataTable
        label={t('pages.clients')}
        testId="clients-table"
        columns={columns}
        rows={page?.items ?? NO_CLIENTS}
        rowId={(client) => client._id}
        loading={list.isFetching}
        error={list.error ? (errorMessage(list.error) ?? t('clients.loadFailed')) : null}
        onRetry={() => void list.refetch()}
        emptyText={t('clients.empty')}
        rowActions={(client) => (
          <DropdownMenu
            label={t('clients.actions.menu', { name: client.name })}
            button={<span aria-hidden="true">⋯</span>}
            buttonClassName="rounded-lg px-2 py-1 text-lg leading-none text-gray-700 hover:bg-gray-100 dark:text-gray-200 dark:hover:bg-gray-800"
            entries={[
              { key: 'open', label: t('clients.actions.open'), onSelect: () => void navigate(`/client/${client._id}`) },
              ...(readOnly
                ? []
                : [
                    { key: 'edit', label: t('clients.actions.edit'), onSelect: () => setEditing(client) },
                    {
                      key: 'delete',
                      label: t('clients.actions.delete'),
                      onSelect: () => setDeleting(client),
                      testId: 'delete-client',
                    },
                  ]),
              ...privacy.entries({ kind: 'client', id: client._id, name: client.name, email: client.email }),
            ]}
          />
        )}
        footer={
          page && page.totalPages > 1 ? (
            <Pager
              page={page.page}
              totalPages={page.totalPages}
              onPage={(next) => setFilters({ ...filters, page: next })}
              info={t('clients.pageOf', { page: page.page, total: page.totalPages, count: page.total })}
              previous={t('clients.previous')}
              next={t('clients.next')}
            />
          ) : undefined
        }
      />
      <FormDialog
        open={editing !== null}
        size="lg"
        title={
          editing && editing !== 'new'
            ? t('clients.form.editTitle', { name: editing.name })
            : t('clients.form.createTitle')
        }
        onClose={() => setEditing(null)}
      >
        <ClientForm
          client={editing === 'new' ? null : editing}
          owners={owners.data ?? null}
          onCancel={() => setEditing(null)}
          onFailed={failed}
          onSaved={(saved) => {
            show({
              kind: 'success',
              title: editing === 'new' ? t('clients.toast.created') : t('clients.toast.saved'),
              detail: redactedNotice(saved.redacted),
            });
            setEditing(null);
          }}
        />
      </FormDialog>
      <ConfirmDialog
        open={deleting !== null}
        message={deleting ? t('clients.confirm.delete', { name: deleting.name }) : ''}
        confirmLabel={t('clients.confirm.yes')}
        cancelLabel={t('clients.confirm.cancel')}
        busy={removing.isLoading}
        onConfirm={() => void onDelete()}
        onCancel={() => setDeleting(null)}
      />
      {privacy.dialog}
      <ToastRegion toasts={toasts} onDismiss={dismiss} closeLabel={t('clients.toast.close')} />
    </div>
  );
}
