import type { ReactElement } from 'react';
import { buttonClass } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import type { Pattern } from '../../entities/transcripts';
import { catalogue } from './patterns-i18n';

/** The patterns with their prompts, automatic run and scope; `canChange` says which rows get Edit and Delete. */
export function PatternList({
  patterns,
  promptName,
  companyName,
  canChange,
  onEdit,
  onDelete,
}: {
  patterns: Pattern[];
  promptName: (id: string) => string;
  companyName: (id: string) => string;
  canChange: (pattern: Pattern) => boolean;
  onEdit: (pattern: Pattern) => void;
  onDelete: (pattern: Pattern) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  return (
    <ul className="flex flex-col divide-y divide-gray-200 dark:divide-gray-800" data-testid="pattern-list">
      {patterns.map((pattern) => (
        <li
          key={pattern._id}
          className="flex flex-col gap-1 py-3 sm:flex-row sm:items-start sm:gap-3"
          data-testid="pattern-row"
        >
          <div className="min-w-0 flex-1">
            <p className="flex flex-wrap items-center gap-2 font-medium">
              {pattern.name}
              <span className="rounded-full bg-gray-100 px-2 py-0.5 text-xs font-normal text-gray-700 dark:bg-gray-800 dark:text-gray-300">
                {pattern.companyId === null ? t('patterns.global') : companyName(pattern.companyId)}
              </span>
            </p>
            <p className="text-sm text-gray-700 dark:text-gray-300">
              <span className="sr-only">{t('patterns.columns.prompts')}: </span>
              {pattern.promptIds.map(promptName).join(', ')}
            </p>
            <p className="text-xs text-gray-600 dark:text-gray-400">
              {t('patterns.columns.autoRun')}: {t(`patterns.autoRun.${pattern.autoRun}`)}
            </p>
          </div>
          {canChange(pattern) ? (
            <div className="flex gap-1">
              <button
                type="button"
                className={buttonClass.row}
                aria-label={t('patterns.editNamed', { name: pattern.name })}
                onClick={() => onEdit(pattern)}
              >
                {t('patterns.edit')}
              </button>
              <button
                type="button"
                className={buttonClass.danger}
                aria-label={t('patterns.deleteNamed', { name: pattern.name })}
                onClick={() => onDelete(pattern)}
              >
                {t('patterns.delete')}
              </button>
            </div>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
