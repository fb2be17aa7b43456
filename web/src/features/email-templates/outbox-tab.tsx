import { useMemo, useState, type ReactElement } from 'react';
import type { OutgoingMailDto } from '@earshot/contracts';
import { MAIL_STATUSES } from '@earshot/contracts/constants';
import { DataTable, type DataColumn } from '../../components/data-table';
import { inputClass } from '../../components/text-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { useOutboxQuery } from './email-api';
import { catalogue } from './i18n';
import { MessageDrawer } from './message-drawer';
import { formatDateTime } from '../../lib/format-time';

const button =
  'rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm font-medium text-gray-700 hover:bg-gray-50 disabled:opacity-60 dark:border-gray-700 dark:bg-gray-900 dark:text-gray-200 dark:hover:bg-gray-800';
const STATUS_STYLE: Record<OutgoingMailDto['status'], string> = {
  queued: 'bg-gray-100 text-gray-800 dark:bg-gray-800 dark:text-gray-200',
  sending: 'bg-blue-100 text-blue-900 dark:bg-blue-900/60 dark:text-blue-100',
  sent: 'bg-green-100 text-green-900 dark:bg-green-900/60 dark:text-green-100',
  failed: 'bg-red-100 text-red-900 dark:bg-red-900/60 dark:text-red-100',
};

/** Every message Earshot queued, newest first, with its status; a message opens in a drawer. */
export function OutboxTab(): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState('');
  const outbox = useOutboxQuery({ page, status: status || undefined });
  const [open, setOpen] = useState<string | null>(null);

  const columns = useMemo<Array<DataColumn<OutgoingMailDto>>>(
    () => [
      {
        id: 'createdAt',
        header: t('email.outbox.columns.createdAt'),
        cell: (m) => (
          <time dateTime={m.createdAt} className="whitespace-nowrap">
            {formatDateTime(m.createdAt, i18n.language)}
          </time>
        ),
        sortValue: (m) => m.createdAt,
        canHide: false,
      },
      { id: 'to', header: t('email.outbox.columns.to'), cell: (m) => m.to, sortValue: (m) => m.to },
      {
        id: 'subject',
        header: t('email.outbox.columns.subject'),
        cell: (m) => <span className="line-clamp-2">{m.subject}</span>,
      },
      {
        id: 'type',
        header: t('email.outbox.columns.type'),
        cell: (m) => t(`email.types.${m.type}`, { defaultValue: m.type }),
      },
      {
        id: 'status',
        header: t('email.outbox.columns.status'),
        sortValue: (m) => m.status,
        cell: (m) => (
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_STYLE[m.status]}`}
            title={m.error ?? undefined}
          >
            {t(`email.outbox.status.${m.status}`)}
          </span>
        ),
      },
      {
        id: 'attempts',
        header: t('email.outbox.columns.attempts'),
        cell: (m) => m.attempts,
        sortValue: (m) => m.attempts,
      },
    ],
    [t, i18n.language],
  );

  const pages = outbox.data?.totalPages ?? 1;
  return (
    <div>
      <p className="mb-4 text-sm text-gray-600 dark:text-gray-400">{t('email.outbox.intro')}</p>
      <div className="mb-3 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="outbox-status" className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">
            {t('email.outbox.statusFilter')}
          </label>
          <select
            id="outbox-status"
            className={inputClass}
            value={status}
            onChange={(event) => {
              setStatus(event.target.value);
              setPage(1);
            }}
          >
            <option value="">{t('email.outbox.allStatuses')}</option>
            {MAIL_STATUSES.map((value) => (
              <option key={value} value={value}>
                {t(`email.outbox.status.${value}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className={button} onClick={() => void outbox.refetch()}>
          {t('email.outbox.refresh')}
        </button>
      </div>
      <DataTable
        label={t('email.tabs.outbox')}
        testId="outbox-table"
        columns={columns}
        rows={outbox.data?.items ?? []}
        rowId={(m) => m._id}
        loading={outbox.isFetching}
        error={outbox.error ? (errorMessage(outbox.error) ?? t('email.outbox.loadFailed')) : null}
        onRetry={() => void outbox.refetch()}
        emptyText={t('email.outbox.empty')}
        rowActions={(m) => (
          <button
            type="button"
            onClick={() => setOpen(m._id)}
            aria-label={t('email.outbox.viewMessage', { to: m.to })}
            className="rounded-lg px-2 py-1 text-sm font-medium text-brand-700 hover:bg-brand-50 dark:text-brand-300 dark:hover:bg-gray-800"
          >
            {t('email.outbox.view')}
          </button>
        )}
        footer={
          pages > 1 ? (
            <div className="flex items-center gap-3">
              <button type="button" className={button} disabled={page <= 1} onClick={() => setPage(page - 1)}>
                {t('email.outbox.previous')}
              </button>
              <span className="text-sm">{t('email.outbox.page', { page, pages })}</span>
              <button type="button" className={button} disabled={page >= pages} onClick={() => setPage(page + 1)}>
                {t('email.outbox.next')}
              </button>
            </div>
          ) : undefined
        }
      />
      <MessageDrawer id={open} onClose={() => setOpen(null)} />
    </div>
  );
}
