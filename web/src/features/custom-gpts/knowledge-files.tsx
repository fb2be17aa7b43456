import { useEffect, useState, type ReactElement } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Spinner } from '../../components/spinner';
import { Alert } from '../../components/text-field';
import { useConfirmedDelete } from '../../components/use-confirmed-delete';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { formatSize } from '../../lib/format-size';
import { useDeleteKnowledgeFileMutation, useKnowledgeFilesQuery } from './custom-gpts-api';
import { FileDropZone } from './file-drop-zone';
import { catalogue } from './i18n';
import { KnowledgeFileRow, UploadRow } from './knowledge-file-row';
import { GPT_LIMITS, isSettled, KNOWLEDGE_POLL_MS, KNOWLEDGE_TYPE_NAMES, type KnowledgeFile } from './model';
import { useKnowledgeUpload } from './use-knowledge-upload';

/** The GPT's knowledge files: upload (drop or choose), processing status, delete. */
export function KnowledgeFiles({ gptId, editable }: { gptId: string; editable: boolean }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [polling, setPolling] = useState(false);
  // Asked again while a file is still being read, until every one is ready or failed.
  const files = useKnowledgeFilesQuery(gptId, { pollingInterval: polling ? KNOWLEDGE_POLL_MS : 0 });
  const settled = (files.data ?? []).every(isSettled);
  useEffect(() => setPolling(!settled), [settled]);
  const { uploads, add, cancel } = useKnowledgeUpload(gptId);
  const [remove, removing] = useDeleteKnowledgeFileMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const deleting = useConfirmedDelete<KnowledgeFile>((fileId) => remove({ gptId, fileId }), {
    done: () => setFailure(null),
    failed: (error) => setFailure(errorMessage(error) ?? t('files.deleteFailed')),
  });

  const list = files.data ?? [];
  return (
    <section aria-labelledby="knowledge-heading" className="max-w-3xl" data-testid="knowledge-files">
      <h2 id="knowledge-heading" className="text-lg font-semibold text-gray-900 dark:text-white">
        {t('files.title')}
      </h2>
      <p className="mt-1 mb-4 text-sm text-gray-600 dark:text-gray-400">
        {t('files.hint', {
          types: KNOWLEDGE_TYPE_NAMES.join(', '),
          size: formatSize(GPT_LIMITS.fileMaxBytes),
          count: GPT_LIMITS.filesPerGpt,
        })}
      </p>
      {editable ? <FileDropZone onFiles={add} disabled={false} /> : null}
      {failure ? (
        <div className="mt-3">
          <Alert>{failure}</Alert>
        </div>
      ) : null}
      <ul className="mt-2 divide-y divide-gray-200 dark:divide-gray-800">
        {uploads.map((upload) => (
          <UploadRow key={`upload-${upload.key}`} upload={upload} onCancel={() => cancel(upload.key)} />
        ))}
        {list.map((file) => (
          <KnowledgeFileRow key={file._id} file={file} onDelete={editable ? () => deleting.ask(file) : null} />
        ))}
      </ul>
      {files.isLoading ? <Spinner label={t('form.loading')} /> : null}
      {files.isError ? <Alert>{errorMessage(files.error) ?? t('files.loadFailed')}</Alert> : null}
      {files.isSuccess && list.length === 0 && uploads.length === 0 ? (
        <p className="py-3 text-sm text-gray-600 dark:text-gray-400">{t('files.empty')}</p>
      ) : null}
      <ConfirmDialog
        open={deleting.target !== null}
        message={t('files.confirmDelete', { name: deleting.target?.name ?? '' })}
        confirmLabel={t('delete')}
        cancelLabel={t('cancel')}
        busy={removing.isLoading}
        onConfirm={() => void deleting.confirm()}
        onCancel={deleting.cancel}
      />
    </section>
  );
}
