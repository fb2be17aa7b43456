import { useEffect, type ReactElement } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { FormField } from '../../components/form-field';
import { buttonClass } from '../../components/form-parts';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { formatMoney } from '../../lib/credits-format';
import { formMessages } from '../../lib/form-messages';
import { placeFieldErrors } from '../../lib/server-errors';
import { catalogue } from './i18n';
import { CurrencyFormSchema, type CurrencyFormValues } from './model';
import { useSetCurrencyMutation } from './pricing-api';

const FIELDS = ['currency', 'creditRate'] as const;

/** The display currency and what one credit is worth in it. */
export function CurrencyForm({
  currency,
  creditRate,
  notify,
}: {
  currency: string;
  creditRate: number;
  notify: (ok: boolean, title: string, detail?: string | null) => void;
}): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const [save, saving] = useSetCurrencyMutation();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<CurrencyFormValues, unknown, z.output<typeof CurrencyFormSchema>>({
    resolver: zodResolver(CurrencyFormSchema, formMessages(t)),
    defaultValues: { currency, creditRate: String(creditRate) },
  });
  useEffect(() => reset({ currency, creditRate: String(creditRate) }), [currency, creditRate, reset]);
  const problem = (message?: string) =>
    message ? t(`pricing.currency.${message}`, { defaultValue: message }) : undefined;

  const submit = async (values: z.output<typeof CurrencyFormSchema>) => {
    try {
      await save(values).unwrap();
      notify(true, t('pricing.currency.saved'));
    } catch (error) {
      if (!placeFieldErrors(error, FIELDS, setError)) notify(false, t('pricing.currency.failed'), errorMessage(error));
    }
  };

  return (
    <section
      aria-labelledby="currency-heading"
      className="mb-8 rounded-2xl border border-gray-200 bg-white p-4 sm:p-6 dark:border-gray-800 dark:bg-gray-900"
    >
      <h2 id="currency-heading" className="text-lg font-semibold">
        {t('pricing.currency.title')}
      </h2>
      <p className="mb-4 text-sm text-gray-600 dark:text-gray-400">
        {t('pricing.currency.intro')}{' '}
        <span data-testid="credit-value">
          {t('pricing.currency.example', { value: formatMoney(1, creditRate, currency, i18n.language) })}
        </span>
      </p>
      <form
        noValidate
        onSubmit={(event) => void handleSubmit(submit)(event)}
        className="grid gap-4 sm:grid-cols-[10rem_12rem_auto] sm:items-start"
        data-testid="currency-form"
      >
        <FormField
          label={t('pricing.currency.code')}
          hint={t('pricing.currency.codeHint')}
          error={problem(errors.currency?.message)}
        >
          <input autoComplete="off" maxLength={3} className="uppercase" {...register('currency')} />
        </FormField>
        <FormField label={t('pricing.currency.rate')} error={problem(errors.creditRate?.message)}>
          <input inputMode="decimal" autoComplete="off" {...register('creditRate')} />
        </FormField>
        <button
          type="submit"
          disabled={saving.isLoading}
          className={`${buttonClass.primary} sm:mt-7 sm:justify-self-start`}
        >
          {t('pricing.currency.save')}
        </button>
      </form>
    </section>
  );
}
