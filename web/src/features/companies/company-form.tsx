// The company's own fields and its theme colours, with react-hook-form and the
// contract's rules. A field the server refuses (a 409 duplicate domain or code, a 400 naming it)
// shows the server's words under that field.
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, type ReactElement } from 'react';
import { useForm, useWatch, type FieldPath } from 'react-hook-form';
import type { z } from 'zod';
import { Field, FormActions, inputClass } from '../../components/form-parts';
import { useFeatureTranslation } from '../../i18n/feature';
import { useCompanyOptionsQuery } from '../../entities/companies';
import { formErrorsOf } from '../../lib/form-errors';
import { catalogue } from './i18n';
import {
  CompanyFormSchema,
  COMPANY_STATUSES,
  COMPANY_TYPES,
  LANGUAGES,
  THEME_KEYS,
  type CompanyFormValues,
} from './model';
import { ThemeColours } from './theme-colours';

type Output = z.output<typeof CompanyFormSchema>;
const FORM_FIELDS = new Set([
  'name',
  'code',
  'domain',
  'type',
  'status',
  'maxUsers',
  'maxStorage',
  'language',
  'partnerCompanyId',
]);

export interface CompanyFormProps {
  initial: CompanyFormValues;
  /** The company being edited (left out of the partner picker); null when creating. */
  companyId: string | null;
  busy: boolean;
  /** Resolves with the server's error, if any, so that it can be put on its field. */
  onSubmit: (values: Output) => Promise<unknown>;
  onCancel: () => void;
}

export function CompanyForm({ initial, companyId, busy, onSubmit, onCancel }: CompanyFormProps): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const partners = useCompanyOptionsQuery();
  const form = useForm<CompanyFormValues, unknown, Output>({
    resolver: zodResolver(CompanyFormSchema),
    defaultValues: initial,
  });
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
    control,
    setValue,
  } = form;
  const theme = useWatch({ control, name: 'theme' });
  useEffect(() => form.reset(initial), [form, initial]);

  /** Our own words for a rule the form checked; the server's for one it refused. */
  const message = (name: FieldPath<CompanyFormValues>, key?: string): string | undefined => {
    const error = name.startsWith('theme.')
      ? errors.theme?.[name.slice(6) as (typeof THEME_KEYS)[number]]
      : errors[name as keyof typeof errors];
    if (!error) return undefined;
    if (error.type === 'server' && typeof error.message === 'string') return error.message;
    return key ? t(`companies.errors.${key}`) : t('companies.saveFailed');
  };
  const formError = errors.root?.server?.message ?? null;

  const submit = handleSubmit(async (values) => {
    const error = await onSubmit(values);
    if (!error) return;
    const { fields, message: text } = formErrorsOf(error);
    let placed = false;
    for (const [field, fieldMessage] of Object.entries(fields)) {
      if (FORM_FIELDS.has(field)) {
        setError(field as keyof CompanyFormValues, { type: 'server', message: fieldMessage });
        placed = true;
      }
    }
    if (!placed) setError('root.server', { message: text ?? t('companies.saveFailed') });
  });

  const select = `${inputClass} pr-8`;
  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-6" data-testid="company-form">
      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold text-gray-900 dark:text-white">
          {t('companies.form.details')}
        </legend>
        <Field label={t('companies.form.name')} error={message('name', 'name')}>
          <input {...register('name')} className={inputClass} autoComplete="off" />
        </Field>
        <Field label={t('companies.form.code')} error={message('code', 'code')}>
          <input {...register('code')} className={inputClass} autoComplete="off" />
        </Field>
        <Field
          label={t('companies.form.domain')}
          error={message('domain', 'domain')}
          hint={t('companies.form.domainHint')}
        >
          <input {...register('domain')} className={inputClass} autoComplete="off" />
        </Field>
        <Field label={t('companies.type')}>
          <select {...register('type')} className={select}>
            {COMPANY_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`companies.types.${type}`)}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('companies.status')}>
          <select {...register('status')} className={select}>
            {COMPANY_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`companies.statuses.${status}`)}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('companies.form.partner')} error={message('partnerCompanyId')}>
          <select {...register('partnerCompanyId')} className={select}>
            <option value="">{t('companies.form.noPartner')}</option>
            {(partners.data ?? [])
              .filter((option) => option._id !== companyId)
              .map((option) => (
                <option key={option._id} value={option._id}>
                  {option.name}
                </option>
              ))}
          </select>
        </Field>
      </fieldset>

      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold text-gray-900 dark:text-white">
          {t('companies.form.limits')}
        </legend>
        <Field
          label={t('companies.form.maxUsers')}
          error={message('maxUsers', 'maxUsers')}
          hint={t('companies.form.blankUnlimited')}
        >
          <input {...register('maxUsers')} inputMode="numeric" className={inputClass} />
        </Field>
        <div className="flex gap-2">
          <div className="flex-1">
            <Field
              label={t('companies.form.maxStorage')}
              error={message('maxStorage', 'maxStorage')}
              hint={t('companies.form.blankUnlimited')}
            >
              <input {...register('maxStorage')} inputMode="decimal" className={inputClass} />
            </Field>
          </div>
          <div className="w-24">
            <Field label={t('companies.form.unit')}>
              <select {...register('storageUnit')} className={select}>
                <option value="MB">MB</option>
                <option value="GB">GB</option>
              </select>
            </Field>
          </div>
        </div>
        <Field label={t('companies.form.language')} hint={t('companies.form.languageHint')}>
          <select {...register('language')} className={select}>
            {LANGUAGES.map((code) => (
              <option key={code} value={code}>
                {t(`companies.languages.${code}`)}
              </option>
            ))}
          </select>
        </Field>
      </fieldset>

      <ThemeColours
        theme={theme}
        register={(key) => register(`theme.${key}`)}
        onPick={(key, value) => setValue(`theme.${key}`, value, { shouldDirty: true, shouldValidate: true })}
        error={(key) => message(`theme.${key}`, 'colour')}
      />

      <FormActions
        busy={busy}
        saveLabel={companyId ? t('companies.form.save') : t('companies.form.create')}
        cancelLabel={t('companies.close')}
        onCancel={onCancel}
        message={formError}
      />
    </form>
  );
}
