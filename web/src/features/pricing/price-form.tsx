import type { ReactElement } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { FormField } from '../../components/form-field';
import { FormActions } from '../../components/form-parts';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { formMessages } from '../../lib/form-messages';
import { placeFieldErrors } from '../../lib/server-errors';
import { catalogue } from './i18n';
import { priceBody, PriceFormSchema, UNITS_BY_PURPOSE, type PriceFormValues, type Subject } from './model';
import { useSetPriceMutation } from './pricing-api';

const FIELDS = ['unit', 'credits', 'effectiveFrom'] as const;

/** A new price for one model or engine, from now or from a later date. */
export function PriceForm({
  subject,
  onSaved,
  onCancel,
}: {
  subject: Subject;
  onSaved: () => void;
  onCancel: () => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [save, saving] = useSetPriceMutation();
  const units = UNITS_BY_PURPOSE[subject.purpose];
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<PriceFormValues, unknown, z.output<typeof PriceFormSchema>>({
    resolver: zodResolver(PriceFormSchema, formMessages(t)),
    defaultValues: { unit: units[0], credits: '', effectiveFrom: '' },
  });
  const problem = (message?: string) => (message ? t(`pricing.form.${message}`, { defaultValue: message }) : undefined);

  const submit = async (values: z.output<typeof PriceFormSchema>) => {
    try {
      await save(priceBody(subject, values)).unwrap();
      onSaved();
    } catch (error) {
      if (!placeFieldErrors(error, FIELDS, setError))
        setError('root', { message: errorMessage(error) ?? t('pricing.form.failed') });
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => void handleSubmit(submit)(event)}
      className="flex flex-col gap-4"
      data-testid="price-form"
    >
      <FormField label={t('pricing.form.unit')} error={errors.unit?.message}>
        <select {...register('unit')}>
          {units.map((unit) => (
            <option
              key={unit}
              value={unit}
            >{`${t(`pricing.unitNames.${unit}`)} (${t(`pricing.units.${unit}`)})`}</option>
          ))}
        </select>
      </FormField>
      <FormField
        label={t('pricing.form.credits')}
        hint={t('pricing.form.creditsHint')}
        error={problem(errors.credits?.message)}
      >
        <input inputMode="decimal" autoComplete="off" {...register('credits')} />
      </FormField>
      <FormField
        label={t('pricing.form.effectiveFrom')}
        hint={t('pricing.form.effectiveHint')}
        error={problem(errors.effectiveFrom?.message)}
      >
        <input type="datetime-local" {...register('effectiveFrom')} />
      </FormField>
      <FormActions
        busy={saving.isLoading}
        saveLabel={t('pricing.form.save')}
        cancelLabel={t('pricing.form.cancel')}
        onCancel={onCancel}
        message={errors.root?.message ?? null}
      />
    </form>
  );
}
