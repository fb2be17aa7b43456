import { useMemo, useState, type ReactElement } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FormDialog } from '../../components/form-dialog';
import { buttonClass } from '../../components/form-field';
import { ToastRegion, useToasts } from '../../components/toast';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { useAnalysisPatternsQuery, useDeletePatternMutation } from './analysis-api';
import type { AvailablePrompt, Pattern } from '../../entities/transcripts';
import { PatternForm } from './pattern-form';
import { PatternList } from './pattern-list';
import { catalogue } from './patterns-i18n';
import { useCompanyOptionsQuery } from '../../entities/companies';

/**
 * Lists, creates, edits and deletes analysis patterns. A lazy chunk of its own: the form validates
 * with the contracts' zod schema, which only administrators need to download.
 */
export default function PatternsDialog({
  host,
  prompts,
  onClose,
}: {
  /** HOST_ADMIN: every pattern, and may make global or any company's; otherwise an ADMIN, who changes only their company's. */
  host: boolean;
  prompts: AvailablePrompt[];
  onClose: () => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const patterns = useAnalysisPatternsQuery();
  const companies = useCompanyOptionsQuery(undefined, { skip: !host });
  const [remove, removing] = useDeletePatternMutation();
  const [editing, setEditing] = useState<Pattern | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Pattern | null>(null);
  const { toasts, show, dismiss } = useToasts();
  const promptNames = useMemo(() => new Map(prompts.map((prompt) => [prompt._id, prompt.name])), [prompts]);
  const companyNames = useMemo(
    () => new Map((companies.data ?? []).map((company) => [company._id, company.name])),
    [companies.data],
  );

  const failed = (title: string, error: unknown) => show({ kind: 'error', title, detail: errorMessage(error) });
  const confirmDelete = async (pattern: Pattern) => {
    try {
      await remove(pattern._id).unwrap();
      show({ kind: 'success', title: t('patterns.toast.deleted') });
    } catch (error) {
      failed(t('patterns.toast.deleteFailed'), error);
    }
    setDeleting(null);
  };

  const list = patterns.data?.items ?? [];
  return (
    <FormDialog
      title={
        editing === null
          ? t('patterns.title')
          : t(editing === 'new' ? 'patterns.form.createTitle' : 'patterns.form.editTitle')
      }
      onClose={onClose}
      size="lg"
      testId="patterns-dialog"
    >
      {editing !== null ? (
        <PatternForm
          pattern={editing === 'new' ? null : editing}
          prompts={prompts}
          companies={host && editing === 'new' ? (companies.data ?? []) : null}
          onSaved={(kind) => {
            show({ kind: 'success', title: t(`patterns.toast.${kind}`) });
            setEditing(null);
          }}
          onFailed={(error) => failed(t('patterns.toast.saveFailed'), error)}
          onCancel={() => setEditing(null)}
        />
      ) : (
        <>
          {patterns.error ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-300">
              {errorMessage(patterns.error) ?? t('patterns.loadFailed')}
            </p>
          ) : null}
          {patterns.data && list.length === 0 ? (
            <p className="text-sm text-gray-600 dark:text-gray-400">{t('patterns.empty')}</p>
          ) : null}
          <PatternList
            patterns={list}
            promptName={(id) => promptNames.get(id) ?? t('patterns.unknownPrompt')}
            companyName={(id) => (host ? (companyNames.get(id) ?? id) : t('patterns.ownCompany'))}
            canChange={(pattern) => host || pattern.companyId !== null}
            onEdit={setEditing}
            onDelete={setDeleting}
          />
          <div className="mt-6 flex justify-end gap-3">
            <button type="button" className={buttonClass.secondary} onClick={onClose}>
              {t('patterns.close')}
            </button>
            <button
              type="button"
              className={buttonClass.primary}
              onClick={() => setEditing('new')}
              data-testid="add-pattern"
            >
              {t('patterns.add')}
            </button>
          </div>
        </>
      )}
      <ConfirmDialog
        open={deleting !== null}
        message={deleting ? t('patterns.confirm.delete', { name: deleting.name }) : ''}
        confirmLabel={t('patterns.confirm.yes')}
        cancelLabel={t('patterns.confirm.no')}
        busy={removing.isLoading}
        onConfirm={() => void (deleting && confirmDelete(deleting))}
        onCancel={() => setDeleting(null)}
      />
      <ToastRegion toasts={toasts} onDismiss={dismiss} closeLabel={t('patterns.toast.close')} />
    </FormDialog>
  );
}
