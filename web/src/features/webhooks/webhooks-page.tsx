// /webhooks: a company's outgoing webhook endpoints. An ADMIN manages their company's; a HOST_ADMIN
// picks the company (kept in the URL as ?companyId=). The route guard keeps everyone else out
// (lib/roles.ts); the server checks again.
import { useState, type ReactElement } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { WebhookDto } from '@earshot/contracts';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type DataColumn } from '../../components/data-table';
import { DropdownMenu } from '../../components/dropdown-menu';
import { buttonClass, inputClass } from '../../components/form-parts';
import { PageHeading } from '../../components/page-heading';
import { ToastRegion, useToasts } from '../../components/toast';
import { useCompanyOptionsQuery } from '../../entities/companies';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { withParams } from '../../lib/search-params';
import { useAppSelector } from '../../lib/store';
import { roleOf } from '../../lib/stored-user';
import { DeliveriesDialog } from './deliveries-dialog';
import { EndpointForm } from './endpoint-form';
import { SecretDialog } from './secret-dialog';
import {
  useDeleteWebhookMutation,
  useRotateWebhookSecretMutation,
  useTestWebhookMutation,
  useUpdateWebhookMutation,
  useWebhooksQuery,
} from './webhooks-api';
import { catalogue } from './i18n';
import { formatDateTime } from '../../lib/format-time';

type Dialog =
  | { kind: 'create' }
  | { kind: 'edit'; endpoint: WebhookDto }
  | { kind: 'log'; endpoint: WebhookDto }
  | { kind: 'rotate'; endpoint: WebhookDto }
  | { kind: 'delete'; endpoint: WebhookDto }
  | null;
const NONE: WebhookDto[] = [];

export default function WebhooksPage(): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const user = useAppSelector((state) => state.session.user);
  const host = roleOf(user) === 'HOST_ADMIN';
  const [search] = useSearchParams();
  const chosen = host ? search.get('companyId') : null;
  const list = useWebhooksQuery(chosen, { skip: host && !chosen });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const { toasts, show, dismiss } = useToasts();
  const [update] = useUpdateWebhookMutation();
  const [remove, removing] = useDeleteWebhookMutation();
  const [rotate, rotating] = useRotateWebhookSecretMutation();
  const [sendTest] = useTestWebhookMutation();
  const notify = (ok: boolean, title: string, detail?: string | null) =>
    show({ kind: ok ? 'success' : 'error', title, detail });
  const run = (work: Promise<unknown>, done: string) =>
    void work.then(
      () => notify(true, done),
      (error: unknown) => notify(false, t('webhooks.failed'), errorMessage(error)),
    );

  const columns: Array<DataColumn<WebhookDto>> = [
    {
      id: 'url',
      header: t('webhooks.url'),
      cell: (e) => (
        <span className="block max-w-72 break-all">
          <span className="font-mono text-xs">{e.url}</span>
          {e.description ? <span className="block text-xs text-gray-500">{e.description}</span> : null}
        </span>
      ),
    },
    {
      id: 'events',
      header: t('webhooks.events'),
      cell: (e) => <span className="block max-w-64 font-mono text-xs">{e.events.join(', ')}</span>,
    },
    {
      id: 'state',
      header: t('webhooks.state'),
      cell: (e) => <EndpointState endpoint={e} language={i18n.language} />,
    },
  ];

  return (
    <div>
      <PageHeading>{t('webhooks.title')}</PageHeading>
      <p className="mb-6 max-w-3xl text-sm text-gray-600 dark:text-gray-400">{t('webhooks.intro')}</p>
      <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end">
        {host ? <CompanyChoice companyId={chosen} /> : null}
        {!host || chosen ? (
          <button
            type="button"
            className={`${buttonClass.primary} sm:ml-auto`}
            onClick={() => setDialog({ kind: 'create' })}
            data-testid="webhook-add"
          >
            {t('webhooks.add')}
          </button>
        ) : null}
      </div>
      {host && !chosen ? (
        <p className="text-sm text-gray-600 dark:text-gray-400">{t('webhooks.pickCompanyFirst')}</p>
      ) : (
        <DataTable
          label={t('webhooks.title')}
          columns={columns}
          rows={list.data?.items ?? NONE}
          rowId={(e) => e.id}
          loading={list.isFetching}
          error={list.error ? (errorMessage(list.error) ?? t('webhooks.loadFailed')) : null}
          onRetry={() => void list.refetch()}
          emptyText={t('webhooks.empty')}
          testId="webhooks-table"
          rowActions={(e) => (
            <DropdownMenu
              label={t('webhooks.actions')}
              button={<span aria-hidden="true">⋯</span>}
              buttonClassName="rounded-lg px-2 py-1 text-lg leading-none text-gray-700 hover:bg-gray-100 dark:text-gray-200 dark:hover:bg-gray-800"
              testId="webhook-actions"
              entries={[
                {
                  key: 'log',
                  label: t('webhooks.deliveries'),
                  onSelect: () => setDialog({ kind: 'log', endpoint: e }),
                },
                { key: 'edit', label: t('webhooks.edit'), onSelect: () => setDialog({ kind: 'edit', endpoint: e }) },
                {
                  key: 'test',
                  label: t('webhooks.test'),
                  onSelect: () => run(sendTest(e.id).unwrap(), t('webhooks.testSent')),
                },
                {
                  key: 'toggle',
                  label: t(e.enabled ? 'webhooks.disable' : 'webhooks.enable'),
                  onSelect: () =>
                    run(update({ id: e.id, body: { enabled: !e.enabled } }).unwrap(), t('webhooks.saved')),
                },
                {
                  key: 'rotate',
                  label: t('webhooks.rotate'),
                  onSelect: () => setDialog({ kind: 'rotate', endpoint: e }),
                },
                {
                  key: 'delete',
                  label: t('webhooks.delete'),
                  onSelect: () => setDialog({ kind: 'delete', endpoint: e }),
                },
              ]}
            />
          )}
        />
      )}
      {dialog?.kind === 'create' || dialog?.kind === 'edit' ? (
        <EndpointForm
          companyId={chosen}
          endpoint={dialog.kind === 'edit' ? dialog.endpoint : null}
          onClose={() => setDialog(null)}
          onCreated={(created) => setSecret(created.secret)}
        />
      ) : null}
      {dialog?.kind === 'log' ? (
        <DeliveriesDialog endpoint={dialog.endpoint} onClose={() => setDialog(null)} notify={notify} />
      ) : null}
      <ConfirmDialog
        open={dialog?.kind === 'rotate' || dialog?.kind === 'delete'}
        message={t(dialog?.kind === 'delete' ? 'webhooks.deleteConfirm' : 'webhooks.rotateConfirm')}
        confirmLabel={t(dialog?.kind === 'delete' ? 'webhooks.delete' : 'webhooks.rotate')}
        cancelLabel={t('webhooks.cancel')}
        busy={removing.isLoading || rotating.isLoading}
        onCancel={() => setDialog(null)}
        onConfirm={() => {
          if (dialog?.kind === 'delete') run(remove(dialog.endpoint.id).unwrap(), t('webhooks.saved'));
          if (dialog?.kind === 'rotate')
            void rotate(dialog.endpoint.id)
              .unwrap()
              .then(
                (answer) => setSecret(answer.secret),
                (error: unknown) => notify(false, t('webhooks.failed'), errorMessage(error)),
              );
          setDialog(null);
        }}
      />
      <SecretDialog secret={secret} onDone={() => setSecret(null)} />
      <ToastRegion toasts={toasts} onDismiss={dismiss} closeLabel={t('webhooks.log.close')} />
    </div>
  );
}

function EndpointState({ endpoint, language }: { endpoint: WebhookDto; language: string }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const tone = !endpoint.enabled
    ? 'bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-300'
    : endpoint.failingSince
      ? 'bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-200'
      : 'bg-green-100 text-green-800 dark:bg-green-900/40 dark:text-green-200';
  const label = !endpoint.enabled
    ? t('webhooks.off')
    : endpoint.failingSince
      ? t('webhooks.failing', {
          since: formatDateTime(endpoint.failingSince, language),
        })
      : t('webhooks.on');
  return (
    <span className="flex flex-col gap-1">
      <span
        className={`inline-flex w-fit rounded-full px-2.5 py-0.5 text-xs font-medium ${tone}`}
        data-testid="webhook-state"
      >
        {label}
      </span>
      {endpoint.disabledReason ? <span className="text-xs text-gray-500">{endpoint.disabledReason}</span> : null}
    </span>
  );
}

/** The HOST_ADMIN's company picker; it writes ?companyId= so a reload or a link keeps the choice. */
function CompanyChoice({ companyId }: { companyId: string | null }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const options = useCompanyOptionsQuery();
  const [search, setSearch] = useSearchParams();
  return (
    <label>
      <span className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">{t('webhooks.company')}</span>
      <select
        className={`${inputClass} pr-8 sm:w-56`}
        value={companyId ?? ''}
        onChange={(event) => setSearch(withParams(search, { companyId: event.target.value || null }))}
        data-testid="webhook-company"
      >
        <option value="">{t('webhooks.pickCompany')}</option>
        {(options.data ?? []).map((company) => (
          <option key={company._id} value={company._id}>
            {company.name}
          </option>
        ))}
      </select>
    </label>
  );
}
