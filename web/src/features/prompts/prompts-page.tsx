import { useCallback, useMemo, useState, type ReactElement } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type DataColumn } from '../../components/data-table';
import { buttonClass } from '../../components/form-field';
import { PageHeading } from '../../components/page-heading';
import { ToastRegion, useToasts } from '../../components/toast';
import { useConfirmedDelete } from '../../components/use-confirmed-delete';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { catalogue } from './i18n';
import { filtersFromSearch, searchFromFilters, type Prompt, type PromptFilters } from './model';
import { PromptFiltersBar } from './prompt-filters';
import { PromptForm, type SaveOutcome } from './prompt-form';
import { useDeletePromptMutation, usePromptsQuery } from './prompts-api';
import { formatDate } from '../../lib/format-time';

const NO_PROMPTS: Prompt[] = [];

/** /prompts (HOST_ADMIN): the prompts people run on transcripts, with their versions. */
export default function PromptsPage(): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const [search, setSearch] = useSearchParams();
  const filters = useMemo(() => filtersFromSearch(search), [search]);
  const list = usePromptsQuery(filters);
  const [remove, removing] = useDeletePromptMutation();
  const { toasts, show, dismiss } = useToasts();
  const [editing, setEditing] = useState<Prompt | 'new' | null>(null);
  const deleting = useConfirmedDelete<Prompt>(remove, {
    done: () => show({ kind: 'success', title: t('messages.deleted') }),
    failed: (error) => show({ kind: 'error', title: t('messages.deleteFailed'), detail: errorMessage(error) }),
  });

  const apply = useCallback((next: PromptFilters) => setSearch(searchFromFilters(next)), [setSearch]);
  const columns = useMemo<Array<DataColumn<Prompt>>>(
    () => [
      {
        id: 'name',
        header: t('columns.name'),
        cell: (p) => <span className="font-medium">{p.name}</span>,
        sortValue: (p) => p.name,
        canHide: false,
      },
      { id: 'type', header: t('columns.type'), cell: (p) => t(`types.${p.type}`), sortValue: (p) => p.type },
      {
        id: 'scope',
        header: t('columns.scope'),
        cell: (p) => t(`scopes.${p.scope ?? 'NA'}`),
        sortValue: (p) => p.scope ?? '',
      },
      { id: 'version', header: t('columns.version'), cell: (p) => `v${p.version}`, sortValue: (p) => p.version },
      {
        id: 'isGlobal',
        header: t('columns.isGlobal'),
        cell: (p) => (p.isGlobal ? t('yes') : t('no')),
        sortValue: (p) => (p.isGlobal ? 1 : 0),
      },
      {
        id: 'createdAt',
        header: t('columns.createdAt'),
        cell: (p) => (
          <time dateTime={p.createdAt} className="whitespace-nowrap">
            {formatDate(p.createdAt, i18n.language)}
          </time>
        ),
        sortValue: (p) => p.createdAt,
      },
    ],
    [t, i18n.language],
  );

  const onSaved = (outcome: SaveOutcome) => {
    if (outcome.kind === 'failed') show({ kind: 'error', title: t('messages.saveFailed'), detail: outcome.detail });
    else show({ kind: 'success', title: t(outcome.kind === 'created' ? 'messages.created' : 'messages.updated') });
  };

  const data = list.data;
  return (
    <div>
      <div className="mb-6 flex flex-wrap items-center gap-3">
        <div className="mr-auto [&>h1]:mb-0">
          <PageHeading>{t('pages.prompts')}</PageHeading>
        </div>
        <button
          type="button"
          className={buttonClass.primary}
          onClick={() => setEditing('new')}
          data-testid="prompt-new"
        >
          {t('newPrompt')}
        </button>
      </div>
      <PromptFiltersBar key={search.toString()} value={filters} onApply={apply} />
      <DataTable
        label={t('pages.prompts')}
        testId="prompts-table"
        columns={columns}
        rows={data?.items ?? NO_PROMPTS}
        rowId={(p) => p._id}
        loading={list.isFetching}
        error={list.error ? (errorMessage(list.error) ?? t('loadFailed')) : null}
        onRetry={() => void list.refetch()}
        emptyText={t('empty')}
        rowActions={(p) => (
          <div className="flex justify-end gap-1">
            <button
              type="button"
              className={buttonClass.row}
              onClick={() => setEditing(p)}
              aria-label={t('editNamed', { name: p.name })}
            >
              {t('edit')}
            </button>
            <button
              type="button"
              className={buttonClass.danger}
              onClick={() => deleting.ask(p)}
              aria-label={t('deleteNamed', { name: p.name })}
            >
              {t('delete')}
            </button>
          </div>
        )}
        footer={
          data && data.totalPages > 1 ? (
            <nav className="flex items-center gap-3 text-sm" aria-label={t('pagination')}>
              <button
                type="button"
                className={buttonClass.secondary}
                disabled={filters.page <= 1}
                onClick={() => apply({ ...filters, page: filters.page - 1 })}
              >
                {t('previous')}
              </button>
              <span>{t('pageOf', { page: filters.page, total: data.totalPages })}</span>
              <button
                type="button"
                className={buttonClass.secondary}
                disabled={filters.page >= data.totalPages}
                onClick={() => apply({ ...filters, page: filters.page + 1 })}
              >
                {t('next')}
              </button>
            </nav>
          ) : undefined
        }
      />
      {editing ? (
        <PromptForm
          key={editing === 'new' ? 'new' : editing._id}
          prompt={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={onSaved}
        />
      ) : null}
      <ConfirmDialog
        open={deleting.target !== null}
        message={t('messages.confirmDelete')}
        confirmLabel={t('delete')}
        cancelLabel={t('form.cancel')}
        busy={removing.isLoading}
        onConfirm={() => void deleting.confirm()}
        onCancel={deleting.cancel}
      />
      <ToastRegion toasts={toasts} onDismiss={dismiss} closeLabel={t('close')} />
    </div>
  );
}
