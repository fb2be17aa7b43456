import { useMemo, type ReactElement } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type DataColumn } from '../../components/data-table';
import { DropdownMenu } from '../../components/dropdown-menu';
import { buttonClass } from '../../components/form-field';
import { PageHeading } from '../../components/page-heading';
import { Pager } from '../../components/pager';
import { SearchForm } from '../../components/search-form';
import { ToastRegion, useToasts } from '../../components/toast';
import { useConfirmedDelete } from '../../components/use-confirmed-delete';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { withParams } from '../../lib/search-params';
import { useAppSelector } from '../../lib/store';
import { roleOf } from '../../lib/stored-user';
import { NameAvatar } from '../../components/name-avatar';
import { useCustomGptsQuery, useDeleteCustomGptMutation, useDuplicateCustomGptMutation } from './custom-gpts-api';
import { catalogue } from './i18n';
import { canChange, type CustomGpt } from './model';
import { formatDate } from '../../lib/format-time';

const NONE: CustomGpt[] = [];

/** /custom-gpts (HOST_ADMIN, ADMIN): the company's assistants (and the platform's offered to it). */
export default function CustomGptsPage(): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const role = useAppSelector((state) => roleOf(state.session.user));
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const list = useCustomGptsQuery({ page, search });
  const [duplicate] = useDuplicateCustomGptMutation();
  const [remove, removing] = useDeleteCustomGptMutation();
  const { toasts, show, dismiss } = useToasts();
  const deleting = useConfirmedDelete<CustomGpt>(remove, {
    done: () => show({ kind: 'success', title: t('messages.deleted') }),
    failed: (error) => show({ kind: 'error', title: t('messages.deleteFailed'), detail: errorMessage(error) }),
  });

  const columns = useMemo<Array<DataColumn<CustomGpt>>>(
    () => [
      {
        id: 'name',
        header: t('columns.name'),
        canHide: false,
        sortValue: (gpt) => gpt.name,
        cell: (gpt) => (
          <span className="flex items-center gap-3">
            <NameAvatar name={gpt.name} src={gpt.avatar} size="sm" />
            <span className="min-w-0">
              <span className="block font-medium text-gray-900 dark:text-white">{gpt.name}</span>
              {gpt.description ? (
                <span
                  className="block max-w-56 truncate text-xs text-gray-600 dark:text-gray-400"
                  title={gpt.description}
                >
                  {gpt.description}
                </span>
              ) : null}
            </span>
          </span>
        ),
      },
      {
        id: 'scope',
        header: t('columns.scope'),
        cell: (gpt) => t(`scopes.${gpt.scope}`),
        sortValue: (gpt) => gpt.scope,
      },
      {
        id: 'visibility',
        header: t('columns.visibility'),
        cell: (gpt) => t(`visibilities.${gpt.visibility}`),
        sortValue: (gpt) => gpt.visibility,
      },
      { id: 'files', header: t('columns.files'), cell: (gpt) => gpt.fileCount, sortValue: (gpt) => gpt.fileCount },
      {
        id: 'enabled',
        header: t('columns.enabled'),
        sortValue: (gpt) => (gpt.enabled ? 1 : 0),
        cell: (gpt) => (
          <span className={gpt.enabled ? 'text-green-700 dark:text-green-300' : 'text-gray-600 dark:text-gray-400'}>
            {gpt.enabled ? t('enabled') : t('disabled')}
          </span>
        ),
      },
      {
        id: 'updatedAt',
        header: t('columns.updatedAt'),
        sortValue: (gpt) => gpt.updatedAt,
        cell: (gpt) => (
          <time dateTime={gpt.updatedAt} className="whitespace-nowrap">
            {formatDate(gpt.updatedAt, i18n.language)}
          </time>
        ),
      },
    ],
    [t, i18n.language],
  );

  const onDuplicate = async (gpt: CustomGpt) => {
    try {
      const copy = await duplicate(gpt._id).unwrap();
      show({ kind: 'success', title: t('messages.duplicated', { name: copy.name }) });
    } catch (error) {
      show({ kind: 'error', title: t('messages.duplicateFailed'), detail: errorMessage(error) });
    }
  };

  const data = list.data;
  return (
    <div>
      <div className="mb-6 flex flex-wrap items-center gap-3">
        <div className="mr-auto [&>h1]:mb-0">
          <PageHeading>{t('pages.customGpts')}</PageHeading>
        </div>
        <Link to="/custom-gpts/create" className={buttonClass.primary} data-testid="gpt-new">
          {t('newGpt')}
        </Link>
      </div>
      <div className="mb-4 flex">
        <SearchForm
          label={t('search.label')}
          placeholder={t('search.placeholder')}
          applyLabel={t('search.apply')}
          value={search}
          onSearch={(text) => setParams(withParams(params, { search: text, page: null }))}
        />
      </div>
      <DataTable
        label={t('pages.customGpts')}
        testId="gpts-table"
        columns={columns}
        rows={data?.items ?? NONE}
        rowId={(gpt) => gpt._id}
        loading={list.isFetching}
        error={list.error ? (errorMessage(list.error) ?? t('loadFailed')) : null}
        onRetry={() => void list.refetch()}
        emptyText={search ? t('noMatch') : t('empty')}
        rowActions={(gpt) =>
          canChange(gpt, role) ? (
            <DropdownMenu
              label={t('actionsFor', { name: gpt.name })}
              button={<span aria-hidden="true">⋯</span>}
              buttonClassName="rounded-lg px-2 py-1 text-lg leading-none text-gray-700 hover:bg-gray-100 dark:text-gray-200 dark:hover:bg-gray-800"
              entries={[
                { key: 'edit', label: t('edit'), to: `/custom-gpts/${encodeURIComponent(gpt._id)}/edit` },
                { key: 'duplicate', label: t('duplicate'), onSelect: () => void onDuplicate(gpt) },
                { key: 'delete', label: t('delete'), onSelect: () => deleting.ask(gpt), testId: 'delete-gpt' },
              ]}
            />
          ) : (
            <span className="block text-right text-xs whitespace-nowrap text-gray-600 dark:text-gray-400">
              {t('readOnly')}
            </span>
          )
        }
        footer={
          data && data.totalPages > 1 ? (
            <Pager
              page={page}
              totalPages={data.totalPages}
              onPage={(next) => setParams(withParams(params, { page: String(next) }))}
              info={t('pageOf', { page, total: data.totalPages })}
              previous={t('previous')}
              next={t('next')}
            />
          ) : undefined
        }
      />
      <ConfirmDialog
        open={deleting.target !== null}
        message={t('messages.confirmDelete', { name: deleting.target?.name ?? '' })}
        confirmLabel={t('delete')}
        cancelLabel={t('cancel')}
        busy={removing.isLoading}
        onConfirm={() => void deleting.confirm()}
        onCancel={deleting.cancel}
      />
      <ToastRegion toasts={toasts} onDismiss={dismiss} closeLabel={t('close')} />
    </div>
  );
}
