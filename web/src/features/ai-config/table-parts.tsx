import type { ReactElement, ReactNode } from 'react';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';

export const th = 'px-4 py-3 text-left text-xs font-semibold tracking-wide text-gray-600 uppercase dark:text-gray-400';
export const td = 'px-4 py-3 align-top text-sm text-gray-800 dark:text-gray-200';

export function YesNo({ value }: { value: boolean }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  return (
    <span
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ${value ? 'bg-green-100 text-green-800 dark:bg-green-900/40 dark:text-green-200' : 'bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-300'}`}
    >
      {value ? t('aiConfig.yes') : t('aiConfig.no')}
    </span>
  );
}

/** A titled card holding one table, with its 'Add' button. */
export function Section({
  title,
  addLabel,
  onAdd,
  addDisabled = false,
  children,
  testId,
}: {
  title: string;
  addLabel: string;
  onAdd: () => void;
  addDisabled?: boolean;
  children: ReactNode;
  testId: string;
}): ReactElement {
  return (
    <section className="mb-8" data-testid={testId} aria-label={title}>
      <div className="mb-3 flex items-center justify-between gap-4">
        <h2 className="text-lg font-semibold text-gray-900 dark:text-white">{title}</h2>
        <button
          type="button"
          onClick={onAdd}
          disabled={addDisabled}
          className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-on-brand hover:bg-brand-700 disabled:opacity-60"
        >
          {addLabel}
        </button>
      </div>
      <div className="overflow-x-auto rounded-2xl border border-gray-200 bg-white dark:border-gray-800 dark:bg-gray-900">
        {children}
      </div>
    </section>
  );
}

export function EmptyRow({ colSpan, text }: { colSpan: number; text: string }): ReactElement {
  return (
    <tr>
      <td colSpan={colSpan} className="px-4 py-8 text-center text-sm text-gray-500 dark:text-gray-400">
        {text}
      </td>
    </tr>
  );
}
