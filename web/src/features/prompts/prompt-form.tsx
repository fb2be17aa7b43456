import { zodResolver } from '@hookform/resolvers/zod';
import { PromptBody } from '@earshot/contracts/prompts';
import type { ReactElement } from 'react';
import { Controller, FormProvider, useForm, useFormContext, useWatch, type FieldPath } from 'react-hook-form';
import { useCompanyOptionsQuery } from '../../entities/companies';
import { FormDialog } from '../../components/form-dialog';
import { buttonClass, Field } from '../../components/form-field';
import { inputClass } from '../../components/text-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { AudiencePicker } from './audience-picker';
import { ExpectedFormatEditor } from './expected-format-editor';
import { catalogue } from './i18n';
import { formValues, PROMPT_SCOPES, PROMPT_TYPES, type Prompt, type PromptBodyInput, type PromptScope } from './model';
import { PromptTextField } from './prompt-text-field';
import { PromptVersions } from './prompt-versions';
import { useCreatePromptMutation, usePromptUsersQuery, useUpdatePromptMutation } from './prompts-api';
import { fieldProblems } from './server-errors';
import { useMessageText } from './use-message-text';

export type SaveOutcome = { kind: 'created' | 'updated' } | { kind: 'failed'; detail: string | null };

/** Who may run the prompt: its scope, the global switch and the companies or people it is for. */
function AudienceFields(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const text = useMessageText();
  const { register, control, formState } = useFormContext<PromptBodyInput>();
  const scope = useWatch({ control, name: 'scope' });
  const companies = useCompanyOptionsQuery(undefined, { skip: scope !== 'company' });
  const users = usePromptUsersQuery(undefined, { skip: scope !== 'user' });
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t('form.scope')} error={text(formState.errors.scope?.message)}>
          <select
            className={inputClass}
            {...register('scope', { setValueAs: (value: string) => (value === '' ? null : (value as PromptScope)) })}
          >
            <option value="">{t('scopes.NA')}</option>
            {PROMPT_SCOPES.map((value) => (
              <option key={value} value={value}>
                {t(`scopes.${value}`)}
              </option>
            ))}
          </select>
        </Field>
        <label className="flex items-center gap-2 self-end pb-3 text-sm text-gray-700 dark:text-gray-300">
          <input type="checkbox" className="size-4 accent-brand-600" {...register('isGlobal')} />
          {t('form.isGlobal')}
        </label>
      </div>
      {scope === 'company' ? (
        <Controller
          control={control}
          name="companies"
          render={({ field, fieldState }) => (
            <AudiencePicker
              label={t('form.companies')}
              options={companies.data ?? []}
              loading={companies.isLoading}
              value={field.value ?? []}
              onChange={field.onChange}
              error={text(fieldState.error?.message)}
            />
          )}
        />
      ) : null}
      {scope === 'user' ? (
        <Controller
          control={control}
          name="users"
          render={({ field, fieldState }) => (
            <AudiencePicker
              label={t('form.users')}
              options={users.data ?? []}
              loading={users.isLoading}
              value={field.value ?? []}
              onChange={field.onChange}
              error={text(fieldState.error?.message)}
            />
          )}
        />
      ) : null}
    </>
  );
}

/** Create or edit a prompt; every save of changed content makes a new version (server side). */
export function PromptForm({
  prompt,
  onClose,
  onSaved,
}: {
  prompt: Prompt | null;
  onClose: () => void;
  onSaved: (outcome: SaveOutcome) => void;
}): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const text = useMessageText();
  const form = useForm<PromptBodyInput, unknown, PromptBody>({
    resolver: zodResolver(PromptBody),
    defaultValues: formValues(prompt),
  });
  const { register, formState, handleSubmit, setError } = form;
  const [create, creating] = useCreatePromptMutation();
  const [update, updating] = useUpdatePromptMutation();

  const onSubmit = handleSubmit(async (body) => {
    try {
      if (prompt) await update({ id: prompt._id, body }).unwrap();
      else await create(body).unwrap();
      onSaved({ kind: prompt ? 'updated' : 'created' });
      onClose();
    } catch (error) {
      const problems = fieldProblems(error);
      for (const problem of problems)
        setError(problem.path as FieldPath<PromptBodyInput>, { type: 'server', message: problem.message });
      onSaved({ kind: 'failed', detail: text(errorMessage(error) ?? undefined) ?? null });
    }
  });

  return (
    <FormDialog title={t(prompt ? 'form.editTitle' : 'form.createTitle')} onClose={onClose} size="lg">
      <FormProvider {...form}>
        <form
          className="flex flex-col gap-4"
          onSubmit={(event) => void onSubmit(event)}
          noValidate
          data-testid="prompt-form"
        >
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label={t('form.name')} error={text(formState.errors.name?.message)}>
              <input className={inputClass} {...register('name')} />
            </Field>
            <Field label={t('form.type')} error={text(formState.errors.type?.message)}>
              <select className={inputClass} {...register('type')}>
                {PROMPT_TYPES.map((value) => (
                  <option key={value} value={value}>
                    {t(`types.${value}`)}
                  </option>
                ))}
              </select>
            </Field>
          </div>
          <Field label={t('form.description')} error={text(formState.errors.description?.message)}>
            <textarea rows={2} className={`${inputClass} h-auto py-2`} {...register('description')} />
          </Field>
          <PromptTextField />
          <ExpectedFormatEditor />
          <AudienceFields />
          {prompt ? <PromptVersions promptId={prompt._id} language={i18n.language} /> : null}
          <div className="sticky bottom-0 -mx-6 -mb-6 flex justify-end gap-3 border-t border-gray-200 bg-white px-6 py-4 dark:border-gray-800 dark:bg-gray-900">
            <button type="button" onClick={onClose} className={buttonClass.secondary}>
              {t('form.cancel')}
            </button>
            <button
              type="submit"
              disabled={creating.isLoading || updating.isLoading}
              className={buttonClass.primary}
              data-testid="form-save"
            >
              {t('form.save')}
            </button>
          </div>
        </form>
      </FormProvider>
    </FormDialog>
  );
}
