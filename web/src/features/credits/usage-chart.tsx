// One figure of the usage page: a bar chart (Chart.js, only in this lazy page's chunk) and the same
// numbers as a table (the rows with use: a month of empty days would bury them), which screen
// readers, print and the tests read.
import { useCallback, useMemo, type ReactElement } from 'react';
import { useFeatureTranslation } from '../../i18n/feature';
import { formatCredits } from '../../lib/credits-format';
import { BarCanvas } from './bar-canvas';
import { catalogue } from './i18n';

export interface Point {
  key: string;
  label: string;
  credits: number;
  /** A second line in the table (tokens, seconds). */
  detail?: string;
}

export function UsageChart({
  title,
  column,
  points,
  horizontal = false,
  testId,
}: {
  title: string;
  column: string;
  points: Point[];
  horizontal?: boolean;
  testId: string;
}): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const format = useCallback((value: number) => formatCredits(value, i18n.language), [i18n.language]);
  const height = horizontal ? Math.max(160, points.length * 36 + 40) : 240;
  const labels = useMemo(() => points.map((point) => point.label), [points]);
  const values = useMemo(() => points.map((point) => point.credits), [points]);
  return (
    <figure
      className="min-w-0 rounded-2xl border border-gray-200 bg-white p-4 dark:border-gray-800 dark:bg-gray-900"
      data-testid={testId}
    >
      <figcaption className="mb-3 font-semibold">{title}</figcaption>
      <div className="text-gray-600 dark:text-gray-300" aria-hidden="true" data-testid={`${testId}-chart`}>
        <BarCanvas labels={labels} values={values} horizontal={horizontal} format={format} height={height} />
      </div>
      <table className="mt-3 w-full text-sm">
        <thead className="sr-only">
          <tr>
            <th scope="col">{title}</th>
            <th scope="col">{column}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-100 dark:divide-gray-800">
          {points
            .filter((point) => point.credits !== 0)
            .map((point) => (
              <tr key={point.key} data-testid={`${testId}-row`}>
                <th scope="row" className="py-1 pr-2 text-left font-normal break-all">
                  {point.label}
                  {point.detail ? (
                    <span className="block text-xs text-gray-500 dark:text-gray-400">{point.detail}</span>
                  ) : null}
                </th>
                <td className="py-1 text-right whitespace-nowrap tabular-nums">
                  {t('reports.credits', { value: format(point.credits) })}
                </td>
              </tr>
            ))}
        </tbody>
      </table>
    </figure>
  );
}
