import type { ReactElement } from 'react';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { ChecklistPicker, type ChecklistTexts } from '../../components/checklist-picker';
import { useFeatureTranslation } from '../../i18n/feature';
import { useCompanyOptionsQuery } from '../../entities/companies';
import { useGptUserOptionsQuery } from './custom-gpts-api';
import { catalogue } from './i18n';
import { GPT_MESSAGES, GPT_VISIBILITIES, type GptFormInput } from './model';

const radioClass = 'flex items-center gap-2 text-sm text-gray-800 dark:text-gray-200';

function useChecklistTexts(): ChecklistTexts {
  const { t } = useFeatureTranslation(catalogue);
  return {
    filter: t('form.filter'),
    loading: t('form.loading'),
    noOptions: t('form.noOptions'),
    chosen: (count) => t('form.chosen', { count }),
  };
}

/** Who may chat with the GPT: the whole company, only its creator, or chosen people. */
export function VisibilityFields(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const texts = useChecklistTexts();
  const { register, control } = useFormContext<GptFormInput>();
  const visibility = useWatch({ control, name: 'visibility' });
  const users = useGptUserOptionsQuery(undefined, { skip: visibility !== 'users' });
  // The contracts' sentence (the form's schema and the server say it) in the page's language.
  const personText = (message: string | undefined) =>
    message === GPT_MESSAGES.usersRequired ? t('form.noUsersChosen') : message;
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-gray-700 dark:text-gray-300">{t('form.visibility')}</legend>
      {GPT_VISIBILITIES.map((value) => (
        <label key={value} className={radioClass}>
          <input type="radio" value={value} className="size-4 accent-brand-600" {...register('visibility')} />
          {t(`visibilityChoices.${value}`)}
        </label>
      ))}
      {visibility === 'users' ? (
        <Controller
          control={control}
          name="userIds"
          render={({ field, fieldState }) => (
            <ChecklistPicker
              label={t('form.users')}
              testId="user-picker"
              options={users.data ?? []}
              loading={users.isLoading}
              value={field.value}
              onChange={field.onChange}
              error={personText(fieldState.error?.message)}
              texts={texts}
            />
          )}
        />
      ) : null}
    </fieldset>
  );
}

/** HOST_ADMIN: a platform GPT is offered to every company, or to the companies chosen. */
export function OfferFields(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const texts = useChecklistTexts();
  const { register, control } = useFormContext<GptFormInput>();
  const offer = useWatch({ control, name: 'offer' });
  const companies = useCompanyOptionsQuery(undefined, { skip: offer !== 'chosen' });
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-gray-700 dark:text-gray-300">{t('form.offer')}</legend>
      <label className={radioClass}>
        <input type="radio" value="all" className="size-4 accent-brand-600" {...register('offer')} />
        {t('form.offerAll')}
      </label>
      <label className={radioClass}>
        <input type="radio" value="chosen" className="size-4 accent-brand-600" {...register('offer')} />
        {t('form.offerChosen')}
      </label>
      {offer === 'chosen' ? (
        <Controller
          control={control}
          name="companyIds"
          render={({ field, fieldState }) => (
            <ChecklistPicker
              label={t('form.companies')}
              testId="company-picker"
              options={companies.data ?? []}
              loading={companies.isLoading}
              value={field.value}
              onChange={field.onChange}
              error={fieldState.error?.message}
              texts={texts}
            />
          )}
        />
      ) : null}
    </fieldset>
  );
}
