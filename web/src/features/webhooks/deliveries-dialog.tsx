// An endpoint's delivery log: each event sent, how many attempts, the last answer and when the
// next retry is due, newest first, with Resend.
import type { ReactElement } from 'react';
import type { WebhookDeliveryDto, WebhookDto } from '@earshot/contracts';
import { buttonClass } from '../../components/form-parts';
import { DataTable, type DataColumn } from '../../components/data-table';
import { Modal } from '../../components/modal';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { useResendDeliveryMutation, useWebhookDeliveriesQuery } from './webhooks-api';
import { catalogue } from './i18n';
import { formatDateTime } from '../../lib/format-time';

const STATUS: Record<WebhookDeliveryDto['status'], string> = {
  pending: 'bg-amber-100 text-amber-800 dark:bg-amber-900/40 dark:text-amber-200',
  succeeded: 'bg-green-100 text-green-800 dark:bg-green-900/40 dark:text-green-200',
  failed: 'bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-200',
};
const NONE: WebhookDeliveryDto[] = [];

export function DeliveriesDialog({
  endpoint,
  onClose,
  notify,
}: {
  endpoint: WebhookDto;
  onClose: () => void;
  notify: (ok: boolean, title: string, detail?: string | null) => void;
}): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const log = useWebhookDeliveriesQuery(endpoint.id, { pollingInterval: 5000 });
  const [resend, resending] = useResendDeliveryMutation();
  const when = (iso: string | null) => (iso ? formatDateTime(iso, i18n.language, 'precise') : '—');
  const columns: Array<DataColumn<WebhookDeliveryDto>> = [
    { id: 'event', header: t('webhooks.log.event'), cell: (d) => <span className="font-mono">{d.eventType}</span> },
    {
      id: 'status',
      header: t('webhooks.log.status'),
      cell: (d) => (
        <span
          data-status={d.status}
          className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-medium ${STATUS[d.status]}`}
        >
          {t(`webhooks.log.${d.status}`)}
        </span>
      ),
    },
    { id: 'attempts', header: t('webhooks.log.attempts'), cell: (d) => d.attempts },
    {
      id: 'code',
      header: t('webhooks.log.code'),
      cell: (d) => (d.lastStatusCode === null ? (d.lastError ?? '—') : String(d.lastStatusCode)),
    },
    {
      id: 'duration',
      header: t('webhooks.log.duration'),
      cell: (d) => (d.lastDurationMs === null ? '—' : `${d.lastDurationMs} ms`),
    },
    { id: 'next', header: t('webhooks.log.next'), cell: (d) => when(d.nextAttemptAt) },
    {
      id: 'response',
      header: t('webhooks.log.response'),
      cell: (d) => (
        <span className="block max-w-56 truncate font-mono text-xs" title={d.responseExcerpt ?? undefined}>
          {d.responseExcerpt ?? '—'}
        </span>
      ),
    },
    { id: 'at', header: t('webhooks.log.at'), cell: (d) => when(d.createdAt) },
  ];
  return (
    <Modal open label={t('webhooks.log.title', { url: endpoint.url })} onClose={onClose} size="lg">
      <h2 className="mb-4 text-lg font-semibold break-all">{t('webhooks.log.title', { url: endpoint.url })}</h2>
      <DataTable
        label={t('webhooks.deliveries')}
        columns={columns}
        rows={log.data?.items ?? NONE}
        rowId={(d) => d.id}
        loading={log.isLoading}
        error={log.error ? (errorMessage(log.error) ?? t('webhooks.failed')) : null}
        onRetry={() => void log.refetch()}
        emptyText={t('webhooks.log.empty')}
        testId="webhook-deliveries"
        rowActions={(d) => (
          <button
            type="button"
            className={buttonClass.row}
            disabled={resending.isLoading}
            onClick={() =>
              void resend({ id: endpoint.id, deliveryId: d.id })
                .unwrap()
                .then(
                  () => notify(true, t('webhooks.log.resent')),
                  (error: unknown) => notify(false, t('webhooks.failed'), errorMessage(error)),
                )
            }
          >
            {t('webhooks.log.resend')}
          </button>
        )}
      />
      <div className="mt-6 flex justify-end">
        <button type="button" className={buttonClass.secondary} onClick={onClose}>
          {t('webhooks.log.close')}
        </button>
      </div>
    </Modal>
  );
}
