import { zodResolver } from '@hookform/resolvers/zod';
import { CreatePatternBody, PatternBody } from '@earshot/contracts/prompts';
import { PATTERN_AUTO_RUN, type PatternAutoRun } from '@earshot/contracts/constants';
import type { ReactElement } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { DialogButtons } from '../../components/form-dialog';
import { Checkbox, FormField } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { formErrorsOf } from '../../lib/form-errors';
import { formMessages } from '../../lib/form-messages';
import { useCreatePatternMutation, useUpdatePatternMutation } from './analysis-api';
import type { AvailablePrompt, Pattern, Option } from '../../entities/transcripts';
import { catalogue } from './patterns-i18n';

// The schema's input: what it fills in by default may be left out.
interface PatternFormValues {
  name: string;
  description?: string;
  promptIds: string[];
  autoRun?: PatternAutoRun;
  companyId?: string | null;
}
const FIELDS = ['name', 'description', 'promptIds', 'autoRun', 'companyId'] as const;

function defaults(pattern: Pattern | null, withCompany: boolean): PatternFormValues {
  const values = {
    name: pattern?.name ?? '',
    description: pattern?.description ?? '',
    promptIds: pattern?.promptIds ?? [],
    autoRun: pattern?.autoRun ?? 'none',
  };
  // The strict schemas refuse a key they do not know: companyId is sent only where it may be chosen.
  return withCompany ? { ...values, companyId: null } : values;
}

/**
 * Create (no `pattern`) or edit a pattern. `companies` is the HOST_ADMIN's company picker for a
 * new pattern (null: an ADMIN's pattern is always their company's, and an edit keeps its company).
 */
export function PatternForm({
  pattern,
  prompts,
  companies,
  onSaved,
  onFailed,
  onCancel,
}: {
  pattern: Pattern | null;
  prompts: AvailablePrompt[];
  companies: Option[] | null;
  onSaved: (kind: 'created' | 'updated') => void;
  onFailed: (error: unknown) => void;
  onCancel: () => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [create, creating] = useCreatePatternMutation();
  const [update, updating] = useUpdatePatternMutation();
  const base = formMessages(t);
  const messages = {
    error: (issue: { code?: string; origin?: string }) =>
      issue.code === 'too_small' && issue.origin === 'array' ? t('patterns.form.promptsRequired') : base.error(issue),
  };
  const schema = companies ? CreatePatternBody : PatternBody;
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<PatternFormValues, unknown, CreatePatternBody>({
    resolver: zodResolver(schema as typeof CreatePatternBody, messages),
    defaultValues: defaults(pattern, companies !== null),
  });

  const submit = async (body: CreatePatternBody) => {
    try {
      if (pattern) await update({ id: pattern._id, body }).unwrap();
      else await create(body).unwrap();
      onSaved(pattern ? 'updated' : 'created');
    } catch (error) {
      // A refused prompt comes back as `body.promptIds.N`: shown on the prompts' list.
      const { fields } = formErrorsOf(error);
      const placed = FIELDS.filter((field) => fields[field]);
      for (const field of placed) setError(field, { type: 'server', message: fields[field] });
      if (placed.length === 0) onFailed(error);
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => void handleSubmit(submit)(event)}
      className="flex flex-col gap-4"
      data-testid="pattern-form"
    >
      <FormField label={t('patterns.form.name')} error={errors.name?.message}>
        <input autoComplete="off" {...register('name')} />
      </FormField>
      <FormField label={t('patterns.form.description')} error={errors.description?.message}>
        <textarea rows={2} {...register('description')} />
      </FormField>
      <Controller
        control={control}
        name="promptIds"
        render={({ field, fieldState }) => (
          <fieldset aria-invalid={Boolean(fieldState.error)} className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium text-gray-700 dark:text-gray-300">
              {t('patterns.form.prompts')}
            </legend>
            {prompts.length === 0 ? (
              <p className="text-sm text-gray-600 dark:text-gray-400">{t('patterns.form.noPrompts')}</p>
            ) : null}
            <div className="grid max-h-48 gap-2 overflow-y-auto sm:grid-cols-2">
              {prompts.map((prompt) => (
                <Checkbox
                  key={prompt._id}
                  label={prompt.name}
                  checked={field.value.includes(prompt._id)}
                  onChange={(checked) =>
                    field.onChange(
                      checked ? [...field.value, prompt._id] : field.value.filter((id) => id !== prompt._id),
                    )
                  }
                />
              ))}
            </div>
            {fieldState.error ? (
              <p role="alert" className="text-xs text-red-700 dark:text-red-300">
                {fieldState.error.message}
              </p>
            ) : null}
          </fieldset>
        )}
      />
      <FormField label={t('patterns.form.autoRun')} error={errors.autoRun?.message}>
        <select {...register('autoRun')}>
          {PATTERN_AUTO_RUN.map((value) => (
            <option key={value} value={value}>
              {t(`patterns.autoRun.${value}`)}
            </option>
          ))}
        </select>
      </FormField>
      {companies ? (
        <FormField label={t('patterns.form.company')} error={errors.companyId?.message}>
          <select {...register('companyId', { setValueAs: (value: string | null) => (value ? value : null) })}>
            <option value="">{t('patterns.form.global')}</option>
            {companies.map((company) => (
              <option key={company._id} value={company._id}>
                {company.name}
              </option>
            ))}
          </select>
        </FormField>
      ) : null}
      <DialogButtons
        cancelLabel={t('patterns.form.cancel')}
        submitLabel={pattern ? t('patterns.form.save') : t('patterns.form.create')}
        busy={creating.isLoading || updating.isLoading}
        onCancel={onCancel}
      />
    </form>
  );
}
