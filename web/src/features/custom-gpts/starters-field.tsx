import type { ReactElement } from 'react';
import { buttonClass, fieldInputClass } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';
import { GPT_LIMITS } from './model';

/** Conversation starters: the suggestions an empty chat with the GPT offers (at most six). */
export function StartersField({
  value,
  onChange,
  errors,
}: {
  value: string[];
  onChange: (starters: string[]) => void;
  errors: Array<string | undefined>;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const full = value.length >= GPT_LIMITS.startersMax;
  const set = (index: number, text: string) => onChange(value.map((starter, at) => (at === index ? text : starter)));
  return (
    <fieldset className="flex flex-col gap-2" data-testid="starters">
      <legend className="mb-1 text-sm font-medium text-gray-700 dark:text-gray-300">{t('form.starters')}</legend>
      <p className="text-xs text-gray-600 dark:text-gray-400">
        {t('form.startersHint', { max: GPT_LIMITS.startersMax })}
      </p>
      {value.map((starter, index) => (
        // The position is the identity: starters have no id, and typing must not remount the input.
        <div key={index}>
          <div className="flex gap-2">
            <input
              className={fieldInputClass}
              value={starter}
              maxLength={GPT_LIMITS.starterMax}
              onChange={(event) => set(index, event.target.value)}
              aria-label={t('form.starterNumber', { number: index + 1 })}
              aria-invalid={Boolean(errors[index])}
            />
            <button
              type="button"
              className={buttonClass.danger}
              onClick={() => onChange(value.filter((_, at) => at !== index))}
              aria-label={t('form.removeStarter', { number: index + 1 })}
            >
              {t('form.remove')}
            </button>
          </div>
          {errors[index] ? (
            <p role="alert" className="mt-1 text-xs text-red-700 dark:text-red-300" data-testid="field-error">
              {errors[index]}
            </p>
          ) : null}
        </div>
      ))}
      <button
        type="button"
        className={`${buttonClass.secondary} w-fit`}
        disabled={full}
        onClick={() => onChange([...value, ''])}
        data-testid="add-starter"
      >
        {t('form.addStarter')}
      </button>
    </fieldset>
  );
}
