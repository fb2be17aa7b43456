// /tags: the company's tags with how many recordings carry each; a tag opens the recordings list
// filtered by it. ADMIN and HOST_ADMIN rename (onto an existing name: the two merge) and delete
// (after a confirmation); everyone else reads. A HOST_ADMIN picks the company (`?companyId=`).
import { TAG_LENGTH_MAX } from '@earshot/contracts/constants';
import { useMemo, useState, type FormEvent, type ReactElement } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { TagCount } from '@earshot/contracts';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type DataColumn } from '../../components/data-table';
import { DialogButtons, FormDialog } from '../../components/form-dialog';
import { FormField, fieldInputClass } from '../../components/form-field';
import { PageHeading } from '../../components/page-heading';
import { useRedactedNotice } from '../../components/redacted-notice';
import { ToastRegion, useToasts } from '../../components/toast';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { useCompanyOptionsQuery } from '../../entities/companies';
import { useTagsQuery } from '../../entities/recordings';
import { withParams } from '../../lib/search-params';
import { useAppSelector } from '../../lib/store';
import { roleOf } from '../../lib/stored-user';
import { catalogue } from './i18n';
import { useDeleteTagMutation, useRenameTagMutation } from './tags-api';

const actionButton = 'rounded-lg px-3 py-1.5 text-xs font-medium';

export default function TagsPage(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const role = useAppSelector((state) => roleOf(state.session.user));
  const isHost = role === 'HOST_ADMIN';
  const mayChange = role === 'ADMIN' || isHost;
  const [params, setParams] = useSearchParams();
  const companyId = isHost ? (params.get('companyId') ?? '') : '';
  const companies = useCompanyOptionsQuery(undefined, { skip: !isHost });
  const tags = useTagsQuery(companyId || undefined, { skip: isHost && !companyId });
  const [renaming, setRenaming] = useState<TagCount | null>(null);
  const [deleting, setDeleting] = useState<TagCount | null>(null);
  const [renameTag, rename] = useRenameTagMutation();
  const [deleteTag, remove] = useDeleteTagMutation();
  const { toasts, show, dismiss } = useToasts();
  const redactedNotice = useRedactedNotice();
  const target = companyId ? { companyId } : {};

  const columns = useMemo(
    (): Array<DataColumn<TagCount>> => [
      {
        id: 'name',
        header: t('tagsPage.name'),
        canHide: false,
        sortValue: (tag) => tag.name,
        cell: (tag) => (
          <Link
            to={`/transcripts?${new URLSearchParams({ tag: tag.name, ...(companyId ? { companyId } : {}) }).toString()}`}
            className="font-medium text-brand-700 hover:underline dark:text-brand-300"
            data-testid="tag-link"
          >
            {tag.name}
          </Link>
        ),
      },
      {
        id: 'count',
        header: t('tagsPage.count'),
        sortValue: (tag) => tag.count,
        className: 'tabular-nums',
        cell: (tag) => <span data-testid="tag-count">{tag.count}</span>,
      },
    ],
    [t, companyId],
  );

  const onDelete = async () => {
    if (!deleting) return;
    try {
      await deleteTag({ name: deleting.name, ...target }).unwrap();
      show({ kind: 'success', title: t('tagsPage.deleted') });
    } catch (error) {
      show({ kind: 'error', title: t('tagsPage.failed'), detail: errorMessage(error) });
    }
    setDeleting(null);
  };

  return (
    <section aria-labelledby="page-heading">
      <ToastRegion toasts={toasts} onDismiss={dismiss} closeLabel={t('tagsPage.close')} />
      <PageHeading>{t('pages.tags')}</PageHeading>
      <p className="mb-1 text-sm text-gray-700 dark:text-gray-300">{t('tagsPage.intro')}</p>
      {!mayChange && (
        <p className="mb-4 text-sm text-gray-600 dark:text-gray-400" data-testid="tags-read-only">
          {t('tagsPage.readOnly')}
        </p>
      )}
      {isHost && (
        <label className="mt-3 mb-4 flex w-full max-w-xs flex-col gap-1 text-xs font-medium text-gray-600 dark:text-gray-400">
          {t('tagsPage.company')}
          <select
            className={fieldInputClass}
            value={companyId}
            onChange={(event) => setParams(withParams(params, { companyId: event.target.value }))}
            data-testid="tags-company"
          >
            <option value="">{t('tagsPage.chooseCompany')}</option>
            {(companies.data ?? []).map((company) => (
              <option key={company._id} value={company._id}>
                {company.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <div className="mt-4">
        <DataTable
          label={t('tagsPage.table')}
          columns={columns}
          rows={tags.data ?? []}
          rowId={(tag) => tag.name}
          loading={tags.isLoading}
          error={tags.isError ? t('tagsPage.error') : null}
          onRetry={() => void tags.refetch()}
          emptyText={isHost && !companyId ? t('tagsPage.chooseCompany') : t('tagsPage.empty')}
          testId="tags-table"
          rowActions={
            mayChange
              ? (tag) => (
                  <div className="flex justify-end gap-1">
                    <button
                      type="button"
                      className={`${actionButton} text-brand-700 hover:bg-brand-50 dark:text-brand-300 dark:hover:bg-gray-800`}
                      onClick={() => setRenaming(tag)}
                      aria-label={t('tagsPage.renameOf', { name: tag.name })}
                      data-testid="rename-tag"
                    >
                      {t('tagsPage.rename')}
                    </button>
                    <button
                      type="button"
                      className={`${actionButton} text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950`}
                      onClick={() => setDeleting(tag)}
                      aria-label={t('tagsPage.deleteOf', { name: tag.name })}
                      data-testid="delete-tag"
                    >
                      {t('tagsPage.delete')}
                    </button>
                  </div>
                )
              : undefined
          }
        />
      </div>
      {renaming && (
        <RenameDialog
          tag={renaming}
          existing={(tags.data ?? []).map((tag) => tag.name)}
          busy={rename.isLoading}
          onClose={() => setRenaming(null)}
          onRename={async (to) => {
            try {
              const { redacted } = await renameTag({ name: renaming.name, to, ...target }).unwrap();
              show({
                kind: 'success',
                title: (tags.data ?? []).some((tag) => tag.name === to) ? t('tagsPage.merged') : t('tagsPage.renamed'),
                detail: redactedNotice(redacted),
              });
              setRenaming(null);
            } catch (error) {
              show({ kind: 'error', title: t('tagsPage.failed'), detail: errorMessage(error) });
            }
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        message={deleting ? t('tagsPage.deleteConfirm', { name: deleting.name, count: deleting.count }) : ''}
        confirmLabel={t('tagsPage.delete')}
        cancelLabel={t('tagsPage.cancel')}
        busy={remove.isLoading}
        onConfirm={() => void onDelete()}
        onCancel={() => setDeleting(null)}
      />
    </section>
  );
}

function RenameDialog({
  tag,
  existing,
  busy,
  onClose,
  onRename,
}: {
  tag: TagCount;
  existing: string[];
  busy: boolean;
  onClose: () => void;
  onRename: (to: string) => Promise<void>;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [name, setName] = useState(tag.name);
  // The server keeps tags trimmed and lower-cased: compare as it will.
  const to = name.trim().toLowerCase();
  const merges = to !== tag.name && existing.includes(to);
  const invalid = to.length === 0 || to.length > TAG_LENGTH_MAX;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (invalid) return;
    if (to === tag.name) onClose();
    else void onRename(to);
  };
  return (
    <FormDialog title={t('tagsPage.renameTitle', { name: tag.name })} onClose={onClose} testId="rename-tag-dialog">
      <form onSubmit={submit} noValidate>
        <FormField
          label={t('tagsPage.newName')}
          hint={merges ? t('tagsPage.mergeNote', { name: to }) : t('tagsPage.nameRule')}
          error={invalid ? t('tagsPage.nameRule') : undefined}
        >
          <input
            value={name}
            onChange={(event) => setName(event.target.value)}
            maxLength={TAG_LENGTH_MAX}
            autoFocus
            data-testid="rename-tag-input"
          />
        </FormField>
        <DialogButtons
          cancelLabel={t('tagsPage.cancel')}
          submitLabel={t('tagsPage.save')}
          busy={busy || invalid}
          onCancel={onClose}
        />
      </form>
    </FormDialog>
  );
}
