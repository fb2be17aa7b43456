// /b2c-users (HOST_ADMIN): the users of every B2C (consumer) company, with their use; create one
// in a B2C company, disable or enable, delete after a confirmation.
import { useCallback, useMemo, useState, type ReactElement } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type DataColumn } from '../../components/data-table';
import { buttonClass } from '../../components/form-parts';
import { PageHeading } from '../../components/page-heading';
import { Pager } from '../../components/pager';
import { SearchForm } from '../../components/search-form';
import { Alert } from '../../components/text-field';
import { ToastRegion, useToasts } from '../../components/toast';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { formatSize } from '../../lib/format-size';
import { withParams } from '../../lib/search-params';
import {
  useB2cCompaniesQuery,
  useB2cUsersQuery,
  useCreateConsumerMutation,
  useDeleteConsumerMutation,
  useSetConsumerStatusMutation,
  type B2cUser,
  type NewConsumer,
} from './b2c-users-api';
import { ConsumerForm } from './consumer-form';
import { catalogue } from './i18n';

const PAGE_SIZE = 20;
const NO_USERS: B2cUser[] = [];

export default function B2cUsersPage(): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const list = useB2cUsersQuery({ search: search || undefined, page, pageSize: PAGE_SIZE });
  const companies = useB2cCompaniesQuery();
  const [create, creating] = useCreateConsumerMutation();
  const [setStatus, statusState] = useSetConsumerStatusMutation();
  const [remove, removing] = useDeleteConsumerMutation();
  const [adding, setAdding] = useState(false);
  const [toDelete, setToDelete] = useState<B2cUser | null>(null);
  const { toasts, show, dismiss } = useToasts();
  const report = useCallback(
    (answer: { error?: unknown }, done: string) => {
      if (answer.error) show({ kind: 'error', title: t('b2c.failed'), detail: errorMessage(answer.error) });
      else show({ kind: 'success', title: done });
    },
    [show, t],
  );

  const when = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }),
    [i18n.language],
  );
  const columns = useMemo<Array<DataColumn<B2cUser>>>(
    () => [
      {
        id: 'name',
        header: t('b2c.columns.name'),
        cell: (u) => <span className="font-medium">{`${u.firstName} ${u.lastName}`}</span>,
        sortValue: (u) => `${u.firstName} ${u.lastName}`.toLowerCase(),
        canHide: false,
      },
      { id: 'email', header: t('b2c.columns.email'), cell: (u) => u.email, sortValue: (u) => u.email },
      { id: 'company', header: t('b2c.columns.company'), cell: (u) => u.companyName, sortValue: (u) => u.companyName },
      {
        id: 'status',
        header: t('b2c.columns.status'),
        cell: (u) => t(`b2c.statuses.${u.status}`),
        sortValue: (u) => u.status,
      },
      {
        id: 'recordings',
        header: t('b2c.columns.recordings'),
        cell: (u) => <span className="tabular-nums">{u.recordings}</span>,
        sortValue: (u) => u.recordings,
      },
      {
        id: 'storage',
        header: t('b2c.columns.storage'),
        cell: (u) => <span className="whitespace-nowrap tabular-nums">{formatSize(u.storageUsed)}</span>,
        sortValue: (u) => u.storageUsed,
      },
      {
        id: 'lastSignIn',
        header: t('b2c.columns.lastSignIn'),
        cell: (u) =>
          u.lastSignInAt ? (
            <time dateTime={u.lastSignInAt} className="whitespace-nowrap">
              {when.format(new Date(u.lastSignInAt))}
            </time>
          ) : (
            t('b2c.never')
          ),
        sortValue: (u) => u.lastSignInAt,
      },
    ],
    [t, when],
  );

  const go = (changes: Record<string, string | null>) => setParams(withParams(params, changes));

  const add = async (consumer: NewConsumer): Promise<unknown> => {
    const answer = await create(consumer);
    if ('error' in answer) return answer.error;
    setAdding(false);
    report(answer, t('b2c.created'));
    return null;
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    const answer = await remove(toDelete._id);
    setToDelete(null);
    report(answer, t('b2c.deleted'));
  };

  const totalPages = Math.max(1, list.data?.totalPages ?? 1);
  const b2cCompanies = companies.data ?? [];
  return (
    <div>
      <div className="mb-2 flex flex-wrap items-center justify-between gap-3">
        <PageHeading>{t('pages.b2cUsers')}</PageHeading>
        <button
          type="button"
          className={buttonClass.primary}
          onClick={() => setAdding(true)}
          disabled={!companies.data || b2cCompanies.length === 0}
          data-testid="consumer-add"
        >
          {t('b2c.add')}
        </button>
      </div>
      <p className="mb-4 text-sm text-gray-600 dark:text-gray-400">{t('b2c.intro')}</p>
      {companies.data && b2cCompanies.length === 0 ? (
        <div className="mb-4">
          <Alert tone="info">{t('b2c.noB2cCompany')}</Alert>
        </div>
      ) : null}
      <div className="mb-4 flex">
        <SearchForm
          label={t('b2c.search')}
          placeholder={t('b2c.searchHint')}
          value={search}
          applyLabel={t('b2c.apply')}
          onSearch={(text) => go({ search: text || null, page: null })}
        />
      </div>
      <DataTable
        label={t('pages.b2cUsers')}
        testId="b2c-table"
        columns={columns}
        rows={list.data?.items ?? NO_USERS}
        rowId={(u) => u._id}
        loading={list.isFetching}
        error={list.error ? (errorMessage(list.error) ?? t('b2c.loadFailed')) : null}
        onRetry={() => void list.refetch()}
        emptyText={t('b2c.empty')}
        rowActions={(u) => {
          const name = `${u.firstName} ${u.lastName}`;
          const next = u.status === 'active' ? 'disabled' : 'active';
          const action = u.status === 'active' ? t('b2c.disable') : t('b2c.enable');
          return (
            <span className="inline-flex gap-1">
              <button
                type="button"
                className={buttonClass.row}
                disabled={statusState.isLoading}
                aria-label={t('b2c.actionFor', { action, name })}
                onClick={() =>
                  void setStatus({ id: u._id, status: next }).then((answer) => report(answer, t('b2c.updated')))
                }
              >
                {action}
              </button>
              <button
                type="button"
                className={buttonClass.danger}
                aria-label={t('b2c.actionFor', { action: t('b2c.delete'), name })}
                onClick={() => setToDelete(u)}
              >
                {t('b2c.delete')}
              </button>
            </span>
          );
        }}
        footer={
          <Pager
            page={page}
            totalPages={totalPages}
            info={t('b2c.pageOf', { page, total: totalPages })}
            previous={t('b2c.previous')}
            next={t('b2c.next')}
            onPage={(n) => go({ page: String(n) })}
          />
        }
      />
      {adding && (
        <ConsumerForm
          companies={b2cCompanies}
          busy={creating.isLoading}
          onSubmit={add}
          onClose={() => setAdding(false)}
        />
      )}
      <ConfirmDialog
        open={toDelete !== null}
        message={t('b2c.confirmDelete')}
        confirmLabel={t('b2c.delete')}
        cancelLabel={t('b2c.cancel')}
        busy={removing.isLoading}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setToDelete(null)}
      />
      <ToastRegion toasts={toasts} onDismiss={dismiss} closeLabel={t('b2c.close')} />
    </div>
  );
}
