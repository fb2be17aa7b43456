import { useState, type ReactElement } from 'react';
import { Link } from 'react-router-dom';
import type { ClientDetailDto, ClientRecordingDto } from '@earshot/contracts';
import { DataTable, type DataColumn } from '../../components/data-table';
import { FormDialog, secondaryButtonClass, submitButtonClass } from '../../components/form-dialog';
import { StatusBadge } from '../../components/status-badge';
import type { Toast } from '../../components/toast';
import { UploadButton, UploadProgress, useFileUpload } from '../../entities/recordings';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { useLinkRecordingMutation } from './clients-api';
import { catalogue } from './i18n';
import { LinkRecordingForm } from './link-recording-form';
import { formatDuration } from './model';
import { formatDate } from '../../lib/format-time';

/**
 * The client's recordings with View and Unlink, an upload straight into this client, and linking
 * one of the company's other recordings. `onUploaded` lets the page wait for the new recording
 * (the profile learns of it from the file service's event).
 */
export function ClientRecordings({
  client,
  canChange,
  notify,
  onUploaded,
}: {
  client: ClientDetailDto;
  canChange: boolean;
  notify: (toast: Omit<Toast, 'id'>) => void;
  onUploaded: (fileId: string) => void;
}): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const { upload, start } = useFileUpload();
  const [link, linking] = useLinkRecordingMutation();
  const [picking, setPicking] = useState(false);
  const nameOf = (recording: ClientRecordingDto) => recording.name ?? t('clients.profile.unnamed');

  const onFile = async (file: File) => {
    const result = await start(file, { clientId: client._id });
    if (result.ok) {
      notify({ kind: 'success', title: t('clients.toast.uploaded') });
      onUploaded(result.body._id);
    } else
      notify({
        kind: 'error',
        title: result.cancelled ? t('clients.toast.uploadCancelled') : t('clients.toast.uploadFailed'),
        detail: result.message,
      });
  };
  const setLink = async (fileId: string, clientId: string | null) => {
    try {
      await link({ transcriptId: fileId, clientId, profileId: client._id }).unwrap();
      notify({ kind: 'success', title: clientId ? t('clients.toast.linked') : t('clients.toast.unlinked') });
      setPicking(false);
    } catch (error) {
      notify({ kind: 'error', title: t('clients.toast.failed'), detail: errorMessage(error) });
    }
  };

  const columns: Array<DataColumn<ClientRecordingDto>> = [
    {
      id: 'name',
      header: t('clients.profile.columns.name'),
      cell: (r) => (
        <span className="font-medium break-words" data-testid="recording-name">
          {nameOf(r)}
        </span>
      ),
      sortValue: nameOf,
      canHide: false,
    },
    {
      id: 'status',
      header: t('clients.profile.columns.status'),
      cell: (r) => <StatusBadge status={r.status} testId="recording-status" />,
      sortValue: (r) => r.status,
    },
    {
      id: 'duration',
      header: t('clients.profile.columns.duration'),
      cell: (r) => <span className="tabular-nums">{formatDuration(r.duration)}</span>,
      sortValue: (r) => r.duration,
    },
    {
      id: 'date',
      header: t('clients.profile.columns.date'),
      cell: (r) =>
        r.uploadedAt ? (
          <time dateTime={r.uploadedAt} className="whitespace-nowrap">
            {formatDate(r.uploadedAt, i18n.language)}
          </time>
        ) : (
          '—'
        ),
      sortValue: (r) => r.uploadedAt,
    },
  ];

  return (
    <section aria-labelledby="client-recordings" className="mt-8">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id="client-recordings" className="text-lg font-semibold text-gray-900 dark:text-white">
          {t('clients.profile.recordings')}
        </h2>
        {canChange && (
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className={secondaryButtonClass}
              onClick={() => setPicking(true)}
              data-testid="link-recording"
            >
              {t('clients.profile.link')}
            </button>
            <UploadButton
              label={t('clients.profile.upload')}
              disabled={upload !== null}
              onFile={(file) => void onFile(file)}
              className={submitButtonClass}
            />
          </div>
        )}
      </div>
      {upload && (
        <UploadProgress
          upload={upload}
          label={t('clients.profile.uploading', { name: upload.name })}
          cancelLabel={t('clients.profile.cancelUpload')}
        />
      )}
      <DataTable
        label={t('clients.profile.recordings')}
        testId="client-recordings"
        columns={columns}
        rows={client.recordings}
        rowId={(recording) => recording.fileId}
        emptyText={t('clients.profile.noRecordings')}
        rowActions={(recording) => (
          <div className="flex justify-end gap-2">
            <Link
              to={`/transcripts/${recording.fileId}`}
              aria-label={t('clients.profile.viewNamed', { name: nameOf(recording) })}
              className="rounded-lg bg-brand-50 px-3 py-1.5 text-xs font-medium text-brand-800 hover:bg-brand-100 dark:bg-brand-900/40 dark:text-brand-100"
            >
              {t('clients.profile.view')}
            </Link>
            {canChange && (
              <button
                type="button"
                disabled={linking.isLoading}
                onClick={() => void setLink(recording.fileId, null)}
                aria-label={t('clients.profile.unlinkNamed', { name: nameOf(recording) })}
                className="rounded-lg px-3 py-1.5 text-xs font-medium text-gray-700 hover:bg-gray-100 dark:text-gray-200 dark:hover:bg-gray-800"
              >
                {t('clients.profile.unlink')}
              </button>
            )}
          </div>
        )}
      />
      <FormDialog
        open={picking}
        title={t('clients.profile.linkTitle', { name: client.name })}
        onClose={() => setPicking(false)}
      >
        <LinkRecordingForm
          clientId={client._id}
          busy={linking.isLoading}
          onLink={(fileId) => void setLink(fileId, client._id)}
          onCancel={() => setPicking(false)}
        />
      </FormDialog>
    </section>
  );
}
