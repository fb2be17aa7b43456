import type { ReactElement } from 'react';
import { Controller, useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { buttonClass, Field } from '../../components/form-field';
import { inputClass } from '../../components/text-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';
import { FORMAT_FIELD_TYPES, type PromptBodyInput } from './model';
import { OptionsInput } from './options-input';
import { useMessageText } from './use-message-text';

type FieldErrors = Partial<Record<'name' | 'type' | 'range' | 'options' | 'description', { message?: string }>>;

/** One field of the expected format: what it is called, its type and what that type needs. */
function FormatFieldRow({ index, onRemove }: { index: number; onRemove: () => void }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const text = useMessageText();
  const { register, control, formState } = useFormContext<PromptBodyInput>();
  const type = useWatch({ control, name: `expectedFormat.${index}.type` });
  const errors = (formState.errors.expectedFormat?.[index] ?? {}) as FieldErrors;
  return (
    <li className="rounded-xl border border-gray-200 p-4 dark:border-gray-700" data-testid="format-field">
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label={t('format.name')} error={text(errors.name?.message)} hint={t('format.nameHint')}>
          <input className={inputClass} {...register(`expectedFormat.${index}.name`)} />
        </Field>
        <Field label={t('format.type')} error={text(errors.type?.message)}>
          <select className={inputClass} {...register(`expectedFormat.${index}.type`)}>
            {FORMAT_FIELD_TYPES.map((value) => (
              <option key={value} value={value}>
                {t(`format.types.${value}`)}
              </option>
            ))}
          </select>
        </Field>
        {type === 'integer' ? (
          <Field label={t('format.range')} error={text(errors.range?.message)} hint={t('format.rangeHint')}>
            <input className={inputClass} placeholder="1-10" {...register(`expectedFormat.${index}.range`)} />
          </Field>
        ) : null}
        {type === 'custom' ? (
          <Controller
            control={control}
            name={`expectedFormat.${index}.options`}
            render={({ field }) => (
              <Field label={t('format.options')} error={text(errors.options?.message)} hint={t('format.optionsHint')}>
                <OptionsInput
                  value={field.value ?? []}
                  onChange={field.onChange}
                  label={t('format.optionsChosen')}
                  removeLabel={(option) => t('format.removeOption', { option })}
                />
              </Field>
            )}
          />
        ) : null}
        <div className="sm:col-span-2">
          <Field label={t('format.description')} error={text(errors.description?.message)}>
            <input className={inputClass} {...register(`expectedFormat.${index}.description`)} />
          </Field>
        </div>
      </div>
      <div className="mt-3 flex justify-end">
        <button type="button" className={buttonClass.danger} onClick={onRemove}>
          {t('format.remove')}
        </button>
      </div>
    </li>
  );
}

/** The expected format: the fields a result of this prompt has. */
export function ExpectedFormatEditor(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const { control } = useFormContext<PromptBodyInput>();
  const { fields, append, remove } = useFieldArray({ control, name: 'expectedFormat' });
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-1 text-sm font-medium text-gray-700 dark:text-gray-300">{t('format.title')}</legend>
      <p className="text-xs text-gray-600 dark:text-gray-400">{t('format.help')}</p>
      {fields.length > 0 ? (
        <ol className="flex flex-col gap-3">
          {fields.map((field, index) => (
            <FormatFieldRow key={field.id} index={index} onRemove={() => remove(index)} />
          ))}
        </ol>
      ) : null}
      <div>
        <button
          type="button"
          className={buttonClass.secondary}
          onClick={() => append({ name: '', type: 'string', range: null, options: null, description: '' })}
          data-testid="add-format-field"
        >
          {t('format.add')}
        </button>
      </div>
    </fieldset>
  );
}
