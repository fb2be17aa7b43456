import { useEffect, type ReactElement } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { FormField } from '../../components/form-field';
import { buttonClass } from '../../components/form-parts';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { formMessages } from '../../lib/form-messages';
import { placeFieldErrors } from '../../lib/server-errors';
import { useCreditSettingsMutation } from './companies-api';
import type { Notify } from './model';
import { catalogue as creditsCatalogue } from './credits-i18n';
import { numberOrBlank, SettingsFormSchema, type SettingsFormValues } from './credits-model';

const FIELDS = ['monthlyBudget', 'monthlyGrant'] as const;

/** The company's monthly budget (alerts at 80% and 100%) and its monthly grant. */
export function CreditSettingsForm({
  companyId,
  monthlyBudget,
  monthlyGrant,
  notify,
}: {
  companyId: string;
  monthlyBudget: number | null;
  monthlyGrant: number | null;
  notify: Notify;
}): ReactElement {
  const { t } = useFeatureTranslation(creditsCatalogue);
  const [save, saving] = useCreditSettingsMutation();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<SettingsFormValues, unknown, z.output<typeof SettingsFormSchema>>({
    resolver: zodResolver(SettingsFormSchema, formMessages(t)),
    defaultValues: { monthlyBudget: numberOrBlank(monthlyBudget), monthlyGrant: numberOrBlank(monthlyGrant) },
  });
  useEffect(
    () => reset({ monthlyBudget: numberOrBlank(monthlyBudget), monthlyGrant: numberOrBlank(monthlyGrant) }),
    [monthlyBudget, monthlyGrant, reset],
  );
  const problem = (message?: string) =>
    message ? t(`credits.settings.${message}`, { defaultValue: message }) : undefined;

  const submit = async (values: z.output<typeof SettingsFormSchema>) => {
    try {
      await save({ id: companyId, monthlyBudget: values.monthlyBudget, monthlyGrant: values.monthlyGrant }).unwrap();
      notify(true, t('credits.settings.saved'));
    } catch (error) {
      if (!placeFieldErrors(error, FIELDS, setError)) notify(false, t('credits.settings.failed'), errorMessage(error));
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => void handleSubmit(submit)(event)}
      className="flex flex-col gap-3"
      data-testid="credit-settings-form"
    >
      <h3 className="font-semibold">{t('credits.settings.title')}</h3>
      <FormField
        label={t('credits.monthlyBudget')}
        hint={`${t('credits.settings.budgetHint')}. ${t('credits.settings.blank')}`}
        error={problem(errors.monthlyBudget?.message)}
      >
        <input inputMode="decimal" autoComplete="off" {...register('monthlyBudget')} />
      </FormField>
      <FormField
        label={t('credits.monthlyGrant')}
        hint={`${t('credits.settings.grantHint')}. ${t('credits.settings.blank')}`}
        error={problem(errors.monthlyGrant?.message)}
      >
        <input inputMode="decimal" autoComplete="off" {...register('monthlyGrant')} />
      </FormField>
      <div>
        <button type="submit" disabled={saving.isLoading} className={buttonClass.primary}>
          {t('credits.settings.save')}
        </button>
      </div>
    </form>
  );
}
