// Choosing several of many (companies, people): a filter box over a list of checkboxes, with how
// many are chosen. Shared by the admin forms that share something with an audience; the words
// come from the page's catalogue.
import { useId, useMemo, useState, type ReactElement } from 'react';
import { inputClass } from './text-field';

interface ChecklistOption {
  _id: string;
  name: string;
}

export interface ChecklistTexts {
  filter: string;
  loading: string;
  noOptions: string;
  /** What is said under the list while there is no error ('Chosen: 3'). */
  chosen: (count: number) => string;
}

export function ChecklistPicker({
  label,
  options,
  value,
  onChange,
  error,
  loading,
  texts,
  testId,
}: {
  label: string;
  options: ChecklistOption[];
  value: string[];
  onChange: (ids: string[]) => void;
  error?: string;
  loading: boolean;
  texts: ChecklistTexts;
  testId?: string;
}): ReactElement {
  const id = useId();
  const [filter, setFilter] = useState('');
  const chosen = useMemo(() => new Set(value), [value]);
  // The first 200 matches: a long list is narrowed with the filter, not scrolled.
  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return options.filter((option) => !needle || option.name.toLowerCase().includes(needle)).slice(0, 200);
  }, [options, filter]);
  const toggle = (optionId: string, on: boolean) =>
    onChange(on ? [...value, optionId] : value.filter((v) => v !== optionId));
  return (
    <fieldset aria-describedby={`${id}-note`} className="flex min-w-0 flex-col gap-2" data-testid={testId}>
      <legend className="mb-1 text-sm font-medium text-gray-700 dark:text-gray-300">{label}</legend>
      <input
        className={inputClass}
        value={filter}
        onChange={(event) => setFilter(event.target.value)}
        placeholder={texts.filter}
        aria-label={`${label}: ${texts.filter}`}
      />
      <div className="max-h-40 overflow-y-auto rounded-lg border border-gray-200 p-2 dark:border-gray-700">
        {loading ? <p className="text-sm text-gray-600 dark:text-gray-400">{texts.loading}</p> : null}
        {!loading && shown.length === 0 ? (
          <p className="text-sm text-gray-600 dark:text-gray-400">{texts.noOptions}</p>
        ) : null}
        {shown.map((option) => (
          <label key={option._id} className="flex items-center gap-2 py-0.5 text-sm text-gray-800 dark:text-gray-200">
            <input
              type="checkbox"
              className="size-4 accent-brand-600"
              checked={chosen.has(option._id)}
              onChange={(event) => toggle(option._id, event.target.checked)}
            />
            <span className="min-w-0 truncate">{option.name}</span>
          </label>
        ))}
      </div>
      <p
        id={`${id}-note`}
        role={error ? 'alert' : undefined}
        className={`text-xs ${error ? 'text-red-700 dark:text-red-300' : 'text-gray-600 dark:text-gray-400'}`}
        data-testid={error ? 'field-error' : undefined}
      >
        {error ?? texts.chosen(value.length)}
      </p>
    </fieldset>
  );
}
