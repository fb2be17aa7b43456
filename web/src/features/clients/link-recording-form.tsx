import { useState, type FormEvent, type ReactElement } from 'react';
import { DialogButtons } from '../../components/form-dialog';
import { FormField } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { useLinkableFilesQuery } from './clients-api';
import { catalogue } from './i18n';

/** Picks one of the company's recordings not yet linked to this client. */
export function LinkRecordingForm({
  clientId,
  busy,
  onLink,
  onCancel,
}: {
  clientId: string;
  busy: boolean;
  onLink: (fileId: string) => void;
  onCancel: () => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const files = useLinkableFilesQuery();
  const choices = (files.data?.items ?? []).filter((file) => file.clientId !== clientId);
  const [fileId, setFileId] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (fileId) onLink(fileId);
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" data-testid="link-recording-form">
      {files.isSuccess && choices.length === 0 ? (
        <p className="text-sm text-gray-600 dark:text-gray-400">{t('clients.profile.noneToLink')}</p>
      ) : (
        <FormField label={t('clients.profile.recording')}>
          <select value={fileId} onChange={(event) => setFileId(event.target.value)} required>
            <option value="">{t('clients.profile.chooseRecording')}</option>
            {choices.map((file) => (
              <option key={file._id} value={file._id}>
                {file.originalName}
              </option>
            ))}
          </select>
        </FormField>
      )}
      <DialogButtons
        cancelLabel={t('clients.form.cancel')}
        submitLabel={t('clients.profile.linkSubmit')}
        busy={busy || !fileId}
        onCancel={onCancel}
      />
    </form>
  );
}
