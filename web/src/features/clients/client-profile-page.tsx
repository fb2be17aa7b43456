import { useEffect, useState, type ReactElement } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { ClientDetailDto } from '@earshot/contracts';
import { FormDialog, secondaryButtonClass } from '../../components/form-dialog';
import { PageHeading } from '../../components/page-heading';
import { PrivacyButtons } from '../../entities/people';
import { PageSpinner } from '../../components/spinner';
import { useRedactedNotice } from '../../components/redacted-notice';
import { ToastRegion, useToasts } from '../../components/toast';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { useAppSelector } from '../../lib/store';
import { roleOf } from '../../lib/stored-user';
import { ClientForm } from './client-form';
import { ClientHold } from './client-hold';
import { ClientRecordings } from './client-recordings';
import { ClientTimeline } from './client-timeline';
import { useClientQuery, useClientTasksQuery, useOwnersQuery } from './clients-api';
import { catalogue } from './i18n';

/** While a new recording has not reached the profile yet, or one is being transcribed. */
const POLL_MS = 2000;

function Details({ client, ownerName }: { client: ClientDetailDto; ownerName: string | null }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const rows: Array<[string, string | null]> = [
    [t('clients.form.organisation'), client.organisation],
    [t('clients.form.email'), client.email],
    [t('clients.form.phone'), client.phone],
    [t('clients.form.externalId'), client.externalId],
    [t('clients.form.owner'), ownerName],
  ];
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-3 sm:grid-cols-2" data-testid="client-details">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt className="text-xs font-medium text-gray-500 uppercase dark:text-gray-400">{label}</dt>
          <dd className="text-sm break-words text-gray-900 dark:text-gray-100">{value ?? t('clients.profile.none')}</dd>
        </div>
      ))}
      <div className="sm:col-span-2">
        <dt className="text-xs font-medium text-gray-500 uppercase dark:text-gray-400">{t('clients.form.notes')}</dt>
        {/* Plain text with its line breaks: never HTML. */}
        <dd className="text-sm break-words whitespace-pre-wrap text-gray-900 dark:text-gray-100">
          {client.notes ?? t('clients.profile.none')}
        </dd>
      </div>
    </dl>
  );
}

/** /client/{clientId}: details with edit, recordings (upload, link, unlink) and a timeline of its calls and tasks. */
export default function ClientProfilePage(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const { clientId = '' } = useParams();
  const navigate = useNavigate();
  const role = useAppSelector((state) => roleOf(state.session.user));
  const canChange = role === 'ADMIN' || role === 'CALLER';
  const [awaiting, setAwaiting] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const client = useClientQuery(clientId, {
    pollingInterval: awaiting || busy ? POLL_MS : 0,
    skipPollingIfUnfocused: true,
  });
  const owners = useOwnersQuery(client.data?.companyId, { skip: role === 'CALLER' || !client.data });
  // Tasks are a company's own: a HOST_ADMIN, who belongs to none, sees the calls alone.
  const tasks = useClientTasksQuery(clientId, { skip: role === 'HOST_ADMIN' || !client.data });
  const { toasts, show, dismiss } = useToasts();
  const redactedNotice = useRedactedNotice();
  const [editing, setEditing] = useState(false);

  const recordings = client.data?.recordings;
  useEffect(() => {
    if (awaiting && recordings?.some((recording) => recording.fileId === awaiting)) setAwaiting(null);
    setBusy(
      Boolean(recordings?.some((recording) => recording.status === 'pending' || recording.status === 'processing')),
    );
  }, [awaiting, recordings]);

  if (client.isLoading) return <PageSpinner label={t('common.loading')} />;
  if (!client.data) {
    return (
      <p role="alert" className="p-6 text-sm text-red-700 dark:text-red-300">
        {errorMessage(client.error) ?? t('clients.profile.loadFailed')}
      </p>
    );
  }
  const data = client.data;
  const ownerName = data.ownerId ? (owners.data?.find((owner) => owner._id === data.ownerId)?.name ?? null) : null;

  return (
    <div>
      <Link to="/clients" className="text-sm font-medium text-brand-700 hover:underline dark:text-brand-300">
        ← {t('clients.profile.back')}
      </Link>
      <div className="mt-2 mb-4 flex flex-wrap items-start justify-between gap-4">
        <PageHeading>{data.name}</PageHeading>
        <div className="flex flex-wrap items-center gap-2">
          <ClientHold client={data} notify={show} />
          <PrivacyButtons
            person={{ kind: 'client', id: data._id, name: data.name, email: data.email }}
            onErased={() => void navigate('/clients')}
          />
          {canChange && (
            <button
              type="button"
              className={secondaryButtonClass}
              onClick={() => setEditing(true)}
              data-testid="edit-client"
            >
              {t('clients.profile.edit')}
            </button>
          )}
        </div>
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        <section
          aria-labelledby="client-details"
          className="rounded-2xl border border-gray-200 bg-white p-5 lg:col-span-2 dark:border-gray-800 dark:bg-gray-900"
        >
          <h2 id="client-details" className="mb-4 text-lg font-semibold text-gray-900 dark:text-white">
            {t('clients.profile.details')}
          </h2>
          <Details client={data} ownerName={ownerName} />
        </section>
        <section
          aria-labelledby="client-timeline"
          className="rounded-2xl border border-gray-200 bg-white p-5 dark:border-gray-800 dark:bg-gray-900"
        >
          <h2 id="client-timeline" className="mb-4 text-lg font-semibold text-gray-900 dark:text-white">
            {t('clients.profile.timeline')}
          </h2>
          <ClientTimeline client={data} tasks={tasks.data?.items ?? null} tasksError={tasks.error} />
        </section>
      </div>
      <ClientRecordings client={data} canChange={canChange} notify={show} onUploaded={setAwaiting} />
      <FormDialog
        open={editing}
        size="lg"
        title={t('clients.form.editTitle', { name: data.name })}
        onClose={() => setEditing(false)}
      >
        <ClientForm
          client={data}
          owners={owners.data ?? null}
          onCancel={() => setEditing(false)}
          onFailed={(error) => show({ kind: 'error', title: t('clients.toast.failed'), detail: errorMessage(error) })}
          onSaved={(saved) => {
            setEditing(false);
            show({ kind: 'success', title: t('clients.toast.saved'), detail: redactedNotice(saved.redacted) });
          }}
        />
      </FormDialog>
      <ToastRegion toasts={toasts} onDismiss={dismiss} closeLabel={t('clients.toast.close')} />
    </div>
  );
}
