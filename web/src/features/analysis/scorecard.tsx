import type { ReactElement } from 'react';
import { useFeatureTranslation } from '../../i18n/feature';
import { analysisCatalogue as catalogue, rangePosition, type ScoreEntry } from '../../entities/transcripts';

function Value({ entry }: { entry: ScoreEntry }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  switch (entry.kind) {
    case 'integer': {
      const position = rangePosition(entry);
      return (
        <div className="flex items-center gap-3" data-kind="integer">
          <span className="text-lg font-semibold tabular-nums">
            {entry.value}
            {entry.max !== null ? (
              <span className="text-sm font-normal text-gray-500 dark:text-gray-400"> / {entry.max}</span>
            ) : null}
          </span>
          {position !== null ? (
            <>
              <meter min={entry.min ?? 0} max={entry.max ?? 1} value={entry.value} className="sr-only">
                {entry.value}
              </meter>
              <span aria-hidden="true" className="h-2 w-32 overflow-hidden rounded-full bg-gray-200 dark:bg-gray-700">
                <span className="block h-full rounded-full bg-brand-600" style={{ width: `${position * 100}%` }} />
              </span>
            </>
          ) : null}
        </div>
      );
    }
    case 'custom':
      return (
        <span
          data-kind="custom"
          className="inline-flex rounded-full bg-brand-50 px-3 py-1 text-sm font-medium text-brand-800 dark:bg-brand-900/40 dark:text-brand-100"
        >
          {entry.value}
        </span>
      );
    case 'boolean':
      return (
        <span
          data-kind="boolean"
          className={`inline-flex rounded-md px-2 py-0.5 text-xs font-semibold ${entry.value ? 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200' : 'bg-gray-200 text-gray-800 dark:bg-gray-700 dark:text-gray-100'}`}
        >
          {entry.value ? t('scorecard.yes') : t('scorecard.no')}
        </span>
      );
    default:
      return (
        <p data-kind="string" className="text-sm whitespace-pre-wrap text-gray-800 dark:text-gray-200">
          {entry.value}
        </p>
      );
  }
}

/** A completed run's result: integers on their range, options as a chip, booleans as a badge, text as text. */
export function Scorecard({ entries }: { entries: ScoreEntry[] }): ReactElement {
  return (
    <dl className="grid gap-3 sm:grid-cols-2" data-testid="scorecard">
      {entries.map((entry) => (
        <div
          key={entry.name}
          className={`rounded-xl border border-gray-200 p-3 dark:border-gray-700 ${entry.kind === 'string' ? 'sm:col-span-2' : ''}`}
          data-testid="score-entry"
        >
          <dt className="mb-1.5 text-sm font-medium text-gray-700 dark:text-gray-300">
            <code>{entry.name}</code>
            {entry.description ? (
              <span className="ml-2 text-xs font-normal text-gray-500 dark:text-gray-400">{entry.description}</span>
            ) : null}
          </dt>
          <dd>
            <Value entry={entry} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
