import { useId, useMemo, useState, type ReactElement } from 'react';
import { inputClass } from '../../components/text-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';
import type { Option } from './prompts-api';

/** Companies or people a prompt is shared with: a filterable list of checkboxes. */
export function AudiencePicker({ label, options, value, onChange, error, loading }: {
  label: string;
  options: Option[];
  value: string[];
  onChange: (ids: string[]) => void;
  error?: string;
  loading: boolean;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const id = useId();
  const [filter, setFilter] = useState('');
  const chosen = useMemo(() => new Set(value), [value]);
  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return options.filter((option) => !needle || option.name.toLowerCase().includes(needle)).slice(0, 200);
  }, [options, filter]);
  const toggle = (optionId: string, on: boolean) => onChange(on ? [...value, optionId] : value.filter((v) => v !== optionId));
  return (
    <fieldset aria-describedby={`${id}-note`} className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-gray-700 dark:text-gray-300">{label}</legend>
      <input className={inputClass} value={filter} onChange={(event) => setFilter(event.target.value)} placeholder={t('form.filter')} aria-label={`${label}: ${t('form.filter')}`} />
      <div className="max-h-40 overflow-y-auto rounded-lg border border-gray-200 p-2 dark:border-gray-700">
        {loading ? <p className="text-sm text-gray-500">{t('form.loading')}</p> : null}
        {!loading && shown.length === 0 ? <p className="text-sm text-gray-500 dark:text-gray-400">{t('form.noOptions')}</p> : null}
        {shown.map((option) => (
          <label key={option._id} className="flex items-center gap-2 py-0.5 text-sm text-gray-800 dark:text-gray-200">
            <input type="checkbox" className="size-4 accent-brand-600" checked={chosen.has(option._id)} onChange={(event) => toggle(option._id, event.target.checked)} />
            {option.name}
          </label>
        ))}
      </div>
      <p id={`${id}-note`} className={`text-xs ${error ? 'text-red-700 dark:text-red-300' : 'text-gray-600 dark:text-gray-400'}`} data-testid={error ? 'field-error' : undefined}>
        {error ?? t('form.chosen', { count: value.length })}
      </p>
    </fieldset>
  );
}
