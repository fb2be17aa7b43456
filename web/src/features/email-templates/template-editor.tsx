import { useRef, useState, type ReactElement } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { EmailTemplateBody, type EmailTemplateDto } from '@earshot/contracts';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { inputClass } from '../../components/text-field';
import { useModalDialog } from '../../components/use-modal-dialog';
import { useFeatureTranslation } from '../../i18n/feature';
import { formErrorsOf } from '../../lib/form-errors';
import {
  useCreateEmailOverrideMutation,
  useDeleteEmailOverrideMutation,
  useSendTestEmailMutation,
  useUpdateEmailTemplateMutation,
  type TemplateDraft,
} from './email-api';
import { catalogue } from './i18n';
import { insertAt } from './links';
import { TemplatePreview } from './template-preview';

type Field = keyof TemplateDraft;
const FIELDS: Field[] = ['subject', 'html', 'text'];
const button =
  'rounded-lg border border-gray-300 px-4 py-2 text-sm font-medium hover:bg-gray-50 disabled:opacity-60 dark:border-gray-700 dark:hover:bg-gray-800';
const primary =
  'rounded-lg bg-brand-500 px-4 py-2 text-sm font-medium text-white hover:bg-brand-600 disabled:opacity-60';

export interface EditorTarget {
  /** The template shown; for a new company version, the platform default it starts from. */
  template: EmailTemplateDto;
  /** Set when saving creates this company's own version instead of changing `template`. */
  overrideFor: string | null;
}

/**
 * One template in a modal: subject, HTML and text with the variables its type allows, a live
 * preview, save (server field errors on the field), send test, delete a company version.
 */
export function TemplateEditor({
  target,
  onClose,
  notify,
}: {
  target: EditorTarget;
  onClose: () => void;
  notify: (kind: 'success' | 'error', title: string, detail?: string | null) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const ref = useModalDialog(true);
  const { template, overrideFor } = target;
  const form = useForm<TemplateDraft>({
    resolver: zodResolver(EmailTemplateBody),
    defaultValues: { subject: template.subject, html: template.html, text: template.text },
  });
  const [update, updating] = useUpdateEmailTemplateMutation();
  const [create, creating] = useCreateEmailOverrideMutation();
  const [remove, removing] = useDeleteEmailOverrideMutation();
  const [sendTest, testing] = useSendTestEmailMutation();
  const [confirming, setConfirming] = useState(false);
  const [formMessage, setFormMessage] = useState<string | null>(null);
  const focused = useRef<{ field: Field; element: HTMLInputElement | HTMLTextAreaElement } | null>(null);
  const draft = form.watch();
  const errors = form.formState.errors;

  const insertVariable = (name: string) => {
    const target = focused.current ?? { field: 'html' as const, element: null };
    const current = form.getValues(target.field);
    const start = target.element?.selectionStart ?? current.length;
    const end = target.element?.selectionEnd ?? current.length;
    const next = insertAt(current, start, end, `{{${name}}}`);
    form.setValue(target.field, next.value, { shouldDirty: true });
    requestAnimationFrame(() => target.element?.setSelectionRange(next.caret, next.caret));
  };

  const save = form.handleSubmit(async (values) => {
    setFormMessage(null);
    try {
      if (overrideFor)
        await create({ ...values, type: template.type, language: template.language, companyId: overrideFor }).unwrap();
      else await update({ id: template._id, draft: values }).unwrap();
      notify('success', t('email.saved'));
      onClose();
    } catch (error) {
      const { fields, message } = formErrorsOf(error);
      for (const field of FIELDS) if (fields[field]) form.setError(field, { message: fields[field] });
      setFormMessage(message);
      notify('error', t('email.saveFailed'), message ?? Object.values(fields)[0]);
    }
  });

  const test = async () => {
    try {
      await sendTest(template._id).unwrap();
      notify('success', t('email.testQueued'));
    } catch (error) {
      notify('error', t('email.testFailed'), formErrorsOf(error).message);
    }
  };

  const deleteOverride = async () => {
    try {
      await remove(template._id).unwrap();
      notify('success', t('email.deleted'));
      onClose();
    } catch (error) {
      notify('error', t('email.deleteFailed'), formErrorsOf(error).message);
    }
  };

  const title = t('email.editTitle', {
    type: t(`email.types.${template.type}`),
    language: template.language.toUpperCase(),
  });
  const isCompanyVersion = template.companyId !== null && !overrideFor;

  return (
    <dialog
      ref={ref}
      aria-label={title}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      data-testid="template-editor"
      className="m-auto max-h-[calc(100vh-2rem)] w-[72rem] max-w-[calc(100vw-1rem)] overflow-y-auto rounded-2xl border border-gray-200 bg-white p-0 text-gray-900 shadow-xl backdrop:bg-gray-900/50 dark:border-gray-800 dark:bg-gray-900 dark:text-white"
    >
      <form onSubmit={(event) => void save(event)} noValidate className="grid gap-6 p-4 sm:p-6 lg:grid-cols-2">
        <div className="flex flex-col gap-4">
          <h2 className="text-lg font-semibold">
            {title}
            {overrideFor ? ` · ${t('email.companyVersion')}` : ''}
          </h2>
          {formMessage && (
            <p
              role="alert"
              className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/50 dark:text-red-200"
            >
              {formMessage}
            </p>
          )}
          <div>
            <p className="mb-2 text-xs text-gray-600 dark:text-gray-400">{t('email.variables')}</p>
            <div className="flex flex-wrap gap-1.5">
              {template.variables.map((name) => (
                <button
                  key={name}
                  type="button"
                  onClick={() => insertVariable(name)}
                  className="rounded-md bg-gray-100 px-2 py-1 font-mono text-xs text-gray-800 hover:bg-brand-50 dark:bg-gray-800 dark:text-gray-200 dark:hover:bg-gray-700"
                >{`{{${name}}}`}</button>
              ))}
            </div>
          </div>
          {FIELDS.map((field) => {
            const { ref: register, ...props } = form.register(field);
            const id = `email-${field}`;
            const error = errors[field]?.message;
            const common = {
              id,
              ...props,
              'aria-invalid': error ? true : undefined,
              'aria-describedby': error ? `${id}-error` : undefined,
              onFocus: (event: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) => {
                focused.current = { field, element: event.currentTarget };
              },
            };
            return (
              <div key={field}>
                <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">
                  {t(`email.fields.${field}`)}
                </label>
                {field === 'subject' ? (
                  <input ref={register} className={inputClass} {...common} />
                ) : (
                  <textarea
                    ref={register}
                    rows={field === 'html' ? 10 : 6}
                    className={`${inputClass} h-auto py-2 font-mono text-xs`}
                    {...common}
                  />
                )}
                {error && (
                  <p id={`${id}-error`} className="mt-1.5 text-sm text-red-700 dark:text-red-300">
                    {error}
                  </p>
                )}
              </div>
            );
          })}
          <div className="flex flex-wrap gap-3">
            <button type="submit" className={primary} disabled={updating.isLoading || creating.isLoading}>
              {updating.isLoading || creating.isLoading ? t('email.saving') : t('email.save')}
            </button>
            {!overrideFor && (
              <button type="button" className={button} disabled={testing.isLoading} onClick={() => void test()}>
                {t('email.sendTest')}
              </button>
            )}
            {isCompanyVersion && (
              <button
                type="button"
                className={`${button} text-red-700 dark:text-red-300`}
                onClick={() => setConfirming(true)}
              >
                {t('email.delete')}
              </button>
            )}
            <button type="button" className={`${button} ml-auto`} onClick={onClose}>
              {t('email.close')}
            </button>
          </div>
        </div>
        <TemplatePreview type={template.type} companyId={overrideFor ?? template.companyId} draft={draft} />
      </form>
      <ConfirmDialog
        open={confirming}
        message={t('email.confirmDelete')}
        confirmLabel={t('email.delete')}
        cancelLabel={t('email.cancel')}
        busy={removing.isLoading}
        onConfirm={() => void deleteOverride()}
        onCancel={() => setConfirming(false)}
      />
    </dialog>
  );
}
