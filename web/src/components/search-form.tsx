import type { FormEvent, ReactElement } from 'react';
import { buttonClass, inputClass } from './form-parts';

/** A search box that applies on Enter or its button (a server-side search, not on each key). */
export function SearchForm({
  label,
  placeholder,
  value,
  applyLabel,
  onSearch,
}: {
  label: string;
  placeholder: string;
  value: string;
  applyLabel: string;
  onSearch: (text: string) => void;
}): ReactElement {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSearch(String(new FormData(event.currentTarget).get('q') ?? '').trim());
  };
  // Keyed on the value: Back/Forward replaces what was typed with the URL's search.
  return (
    <form role="search" onSubmit={submit} className="flex flex-1 items-end gap-2" key={value}>
      <label className="flex-1">
        <span className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">{label}</span>
        <input name="q" type="search" defaultValue={value} placeholder={placeholder} className={inputClass} />
      </label>
      <button type="submit" className={`${buttonClass.secondary} h-11`}>
        {applyLabel}
      </button>
    </form>
  );
}
