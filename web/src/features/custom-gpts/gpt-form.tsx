import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState, type ReactElement } from 'react';
import { Controller, FormProvider, useForm } from 'react-hook-form';
import { Checkbox, FormField } from '../../components/form-field';
import { FormActions } from '../../components/form-parts';
import { NameAvatar } from '../../components/name-avatar';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { formMessages } from '../../lib/form-messages';
import { placeFieldErrors } from '../../lib/server-errors';
import { OfferFields, VisibilityFields } from './audience-fields';
import { useCreateCustomGptMutation, useGptChatModelsQuery, useUpdateCustomGptMutation } from './custom-gpts-api';
import { catalogue } from './i18n';
import {
  formValues,
  GPT_FIELDS,
  gptFormSchema,
  offersNoCompany,
  type CustomGpt,
  type CustomGptBody,
  type GptFormInput,
} from './model';
import { StartersField } from './starters-field';

/** The chat model: '' is the default model (whichever is default when the GPT answers). */
function ModelField({ saved }: { saved: string | null }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const models = useGptChatModelsQuery();
  const list = models.data ?? [];
  return (
    <Controller
      name="modelId"
      render={({ field, fieldState }) => (
        <FormField label={t('form.model')} error={fieldState.error?.message} hint={t('form.modelHint')}>
          <select {...field} data-testid="gpt-model">
            <option value="">{t('form.defaultModel')}</option>
            {list.map((model) => (
              <option key={model._id} value={model._id}>
                {model.name}
              </option>
            ))}
            {saved && models.isSuccess && !list.some((model) => model._id === saved) ? (
              <option value={saved}>{t('form.missingModel')}</option>
            ) : null}
          </select>
        </FormField>
      )}
    />
  );
}

/**
 * Create (no `gpt`) or edit a custom GPT. A HOST_ADMIN's GPT is a platform GPT (offered to every
 * company or to chosen ones); an ADMIN's belongs to their company. Validation is the contracts'
 * schema (the server's own), its messages in the page's language.
 */
export function GptForm({
  gpt,
  platform,
  onSaved,
  onCancel,
}: {
  gpt: CustomGpt | null;
  platform: boolean;
  onSaved: (gpt: CustomGpt) => void;
  onCancel: () => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const schema = useMemo(() => gptFormSchema(platform), [platform]);
  const form = useForm<GptFormInput, unknown, CustomGptBody>({
    resolver: zodResolver(schema, formMessages(t)),
    defaultValues: formValues(gpt),
  });
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
    watch,
  } = form;
  const [create, creating] = useCreateCustomGptMutation();
  const [update, updating] = useUpdateCustomGptMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const avatar = watch('avatar');
  const name = watch('name');

  const submit = async (body: CustomGptBody) => {
    setFailure(null);
    if (offersNoCompany(form.getValues(), platform))
      return setError('companyIds', { type: 'required', message: t('form.noCompaniesChosen') });
    try {
      onSaved(gpt ? await update({ id: gpt._id, body }).unwrap() : await create(body).unwrap());
    } catch (error) {
      if (!placeFieldErrors(error, GPT_FIELDS, setError)) setFailure(errorMessage(error) ?? t('messages.saveFailed'));
    }
  };

  const starterErrors = Array.isArray(errors.starters)
    ? (errors.starters as Array<{ message?: string } | undefined>).map((error) => error?.message)
    : [];
  return (
    <FormProvider {...form}>
      <form
        noValidate
        onSubmit={(event) => void handleSubmit(submit)(event)}
        className="flex max-w-3xl flex-col gap-5"
        data-testid="gpt-form"
      >
        <FormField label={t('form.name')} error={errors.name?.message}>
          <input autoComplete="off" {...register('name')} />
        </FormField>
        <FormField label={t('form.description')} error={errors.description?.message} hint={t('form.descriptionHint')}>
          <textarea rows={2} {...register('description')} />
        </FormField>
        <div className="flex items-start gap-3">
          <div className="mt-7">
            <NameAvatar name={name || '?'} src={avatar.trim() || null} size="md" />
          </div>
          <div className="min-w-0 flex-1">
            <FormField label={t('form.avatar')} error={errors.avatar?.message} hint={t('form.avatarHint')}>
              <input type="text" inputMode="url" autoComplete="off" {...register('avatar')} />
            </FormField>
          </div>
        </div>
        <FormField
          label={t('form.instructions')}
          error={errors.instructions?.message}
          hint={t('form.instructionsHint')}
        >
          <textarea rows={10} {...register('instructions')} />
        </FormField>
        <ModelField saved={gpt?.modelId ?? null} />
        <Controller
          name="starters"
          control={form.control}
          render={({ field }) => <StartersField value={field.value} onChange={field.onChange} errors={starterErrors} />}
        />
        <Controller
          name="searchTranscripts"
          control={form.control}
          render={({ field }) => (
            <Checkbox
              label={t('form.searchTranscripts')}
              checked={field.value}
              onChange={field.onChange}
              testId="gpt-search-transcripts"
            />
          )}
        />
        <VisibilityFields />
        {platform ? <OfferFields /> : null}
        <Controller
          name="enabled"
          control={form.control}
          render={({ field }) => (
            <Checkbox label={t('form.enabled')} checked={field.value} onChange={field.onChange} testId="gpt-enabled" />
          )}
        />
        <FormActions
          busy={creating.isLoading || updating.isLoading}
          saveLabel={gpt ? t('form.save') : t('form.create')}
          cancelLabel={t('cancel')}
          onCancel={onCancel}
          message={failure}
        />
      </form>
    </FormProvider>
  );
}
