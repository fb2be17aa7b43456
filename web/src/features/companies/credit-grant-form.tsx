import type { ReactElement } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { FormField } from '../../components/form-field';
import { buttonClass } from '../../components/form-parts';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { formatCredits } from '../../lib/credits-format';
import { formMessages } from '../../lib/form-messages';
import { placeFieldErrors } from '../../lib/server-errors';
import { useRecordCreditsMutation } from './companies-api';
import { catalogue as creditsCatalogue } from './credits-i18n';
import { GrantFormSchema, type GrantFormValues } from './credits-model';
import type { Notify } from './model';

const FIELDS = ['amount', 'reason'] as const;

/** A grant (positive amount) or an adjustment (negative), always with its reason. */
export function CreditGrantForm({ companyId, notify }: { companyId: string; notify: Notify }): ReactElement {
  const { t, i18n } = useFeatureTranslation(creditsCatalogue);
  const [record, recording] = useRecordCreditsMutation();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<GrantFormValues, unknown, z.output<typeof GrantFormSchema>>({
    resolver: zodResolver(GrantFormSchema, formMessages(t)),
    defaultValues: { amount: '', reason: '' },
  });
  const problem = (message?: string) =>
    message ? t(`credits.grant.${message}`, { defaultValue: message }) : undefined;

  const submit = async (values: z.output<typeof GrantFormSchema>) => {
    try {
      const answer = await record({ id: companyId, amount: values.amount, reason: values.reason }).unwrap();
      reset();
      notify(true, t('credits.grant.done', { balance: formatCredits(answer.balance, i18n.language) }));
    } catch (error) {
      if (!placeFieldErrors(error, FIELDS, setError)) notify(false, t('credits.grant.failed'), errorMessage(error));
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => void handleSubmit(submit)(event)}
      className="flex flex-col gap-3"
      data-testid="credit-grant-form"
    >
      <h3 className="font-semibold">{t('credits.grant.title')}</h3>
      <FormField
        label={t('credits.grant.amount')}
        hint={t('credits.grant.amountHint')}
        error={problem(errors.amount?.message)}
      >
        <input inputMode="decimal" autoComplete="off" {...register('amount')} />
      </FormField>
      <FormField label={t('credits.grant.reason')} error={errors.reason?.message}>
        <input autoComplete="off" maxLength={500} {...register('reason')} />
      </FormField>
      <div>
        <button type="submit" disabled={recording.isLoading} className={buttonClass.primary}>
          {t('credits.grant.submit')}
        </button>
      </div>
    </form>
  );
}
