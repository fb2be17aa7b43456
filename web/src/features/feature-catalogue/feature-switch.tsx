import type { ReactElement } from 'react';

/** An on/off switch (a button with role switch): name and description, and the state in words. */
export function FeatureSwitch({
  name,
  description,
  checked,
  stateText,
  note,
  disabled,
  onChange,
}: {
  name: string;
  description: string;
  checked: boolean;
  stateText: string;
  note?: string | null;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}): ReactElement {
  return (
    <li className="flex items-start justify-between gap-4 py-3">
      <div className="min-w-0">
        <p className="text-sm font-medium text-gray-900 dark:text-white">{name}</p>
        <p className="text-xs text-gray-600 dark:text-gray-400">{description}</p>
        {note ? <p className="mt-1 text-xs text-amber-800 dark:text-amber-300">{note}</p> : null}
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-label={name}
        disabled={disabled}
        onClick={() => onChange(!checked)}
        className="flex shrink-0 items-center gap-2 text-xs text-gray-700 disabled:opacity-50 dark:text-gray-300"
      >
        <span
          className={`relative inline-block h-6 w-11 shrink-0 rounded-full transition-colors ${checked ? 'bg-brand-600' : 'bg-gray-300 dark:bg-gray-700'}`}
        >
          <span
            className={`absolute top-0.5 left-0 size-5 rounded-full bg-white shadow transition-transform ${checked ? 'translate-x-5' : 'translate-x-0.5'}`}
          />
        </span>
        <span className="w-16 text-left">{stateText}</span>
      </button>
    </li>
  );
}
