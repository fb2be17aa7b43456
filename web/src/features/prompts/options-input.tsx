import { useState, type KeyboardEvent, type ReactElement } from 'react';
import { inputClass } from '../../components/text-field';

/** A custom field's options as chips: Enter or a comma adds the typed option, × removes one. */
export function OptionsInput({
  value,
  onChange,
  label,
  removeLabel,
  ...input
}: {
  value: string[];
  onChange: (options: string[]) => void;
  label: string;
  removeLabel: (option: string) => string;
  /** Given by Field: the label's target, the note and the error state. */
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}): ReactElement {
  const [draft, setDraft] = useState('');
  const add = () => {
    const option = draft.trim().replace(/,$/, '').trim();
    setDraft('');
    if (option && !value.some((o) => o.toLowerCase() === option.toLowerCase())) onChange([...value, option]);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      add();
    } else if (event.key === 'Backspace' && draft === '' && value.length > 0) {
      onChange(value.slice(0, -1));
    }
  };
  return (
    <div className="flex flex-col gap-2">
      {value.length > 0 ? (
        <ul className="flex flex-wrap gap-1.5" aria-label={label}>
          {value.map((option) => (
            <li
              key={option}
              className="inline-flex items-center gap-1 rounded-full bg-brand-50 py-0.5 pr-1 pl-2.5 text-xs font-medium text-brand-800 dark:bg-brand-900/40 dark:text-brand-100"
              data-testid="option-chip"
            >
              {option}
              <button
                type="button"
                onClick={() => onChange(value.filter((o) => o !== option))}
                aria-label={removeLabel(option)}
                className="rounded-full px-1 leading-none hover:bg-brand-100 dark:hover:bg-brand-800"
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <input
        {...input}
        className={inputClass}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onKeyDown}
        onBlur={add}
        placeholder="positive, neutral, negative"
      />
    </div>
  );
}
