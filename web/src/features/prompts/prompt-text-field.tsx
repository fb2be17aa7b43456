import { useRef, type ReactElement } from 'react';
import { useFormContext } from 'react-hook-form';
import { Field } from '../../components/form-field';
import { inputClass } from '../../components/text-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';
import { PROMPT_VARIABLES, type PromptBodyInput } from './model';
import { useMessageText } from './use-message-text';

/** The prompt text, with the variables it may use listed as buttons that insert them at the cursor. */
export function PromptTextField(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const text = useMessageText();
  const { register, setValue, getValues, formState } = useFormContext<PromptBodyInput>();
  const area = useRef<HTMLTextAreaElement | null>(null);
  const { ref, ...field } = register('prompt');

  const insert = (variable: string) => {
    const token = `{{${variable}}}`;
    const current = getValues('prompt') ?? '';
    const element = area.current;
    const start = element?.selectionStart ?? current.length;
    const end = element?.selectionEnd ?? current.length;
    setValue('prompt', current.slice(0, start) + token + current.slice(end), { shouldDirty: true });
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(start + token.length, start + token.length);
    });
  };

  return (
    <div className="flex flex-col gap-2">
      <Field label={t('form.prompt')} error={text(formState.errors.prompt?.message)} hint={t('form.promptHint')}>
        <textarea
          {...field}
          ref={(element) => {
            ref(element);
            area.current = element;
          }}
          rows={6}
          className={`${inputClass} h-auto py-3 font-mono`}
        />
      </Field>
      <div className="flex flex-wrap items-center gap-1.5" role="group" aria-label={t('form.variables')}>
        <span className="text-xs text-gray-600 dark:text-gray-400">{t('form.variables')}:</span>
        {PROMPT_VARIABLES.map((variable) => (
          <button
            key={variable}
            type="button"
            onClick={() => insert(variable)}
            className="rounded-md border border-gray-300 px-2 py-0.5 font-mono text-xs text-gray-700 hover:bg-gray-50 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800"
            title={t('form.insertVariable')}
          >
            {`{{${variable}}}`}
          </button>
        ))}
      </div>
    </div>
  );
}
