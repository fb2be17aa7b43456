// One chart of a dashboard: the canvas (Chart.js, fetched with a dynamic import the first time a
// chart is drawn) and the same figures as a table, which is the chart's text alternative for
// screen readers and the keyboard's way to open the calls behind a period.
import { lazy, Suspense, type ReactElement } from 'react';
import { Spinner } from '../../components/spinner';
import { useFeatureTranslation } from '../../i18n/feature';
import type { ChartCanvasProps } from './chart-canvas';
import { catalogue } from './i18n';

const ChartCanvas = lazy(() => import('./chart-canvas'));

export interface ChartFigureProps extends Omit<ChartCanvasProps, 'onPoint'> {
  title: string;
  testId: string;
  /** The first column's header (Period, Week...). */
  column: string;
  /** Opens the calls behind the point at `index`; without it the rows are plain. */
  onOpen?: (index: number) => void;
  /** Nothing to draw: `emptyText` says so instead of an empty chart. */
  empty?: boolean;
  emptyText: string;
}

function cell(value: number | null, format: (value: number) => string): string {
  return value === null ? '—' : format(value);
}

export function ChartFigure({
  title,
  testId,
  column,
  onOpen,
  empty = false,
  emptyText,
  ...chart
}: ChartFigureProps): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  return (
    <figure
      className="min-w-0 rounded-2xl border border-gray-200 bg-white p-4 dark:border-gray-800 dark:bg-gray-900"
      data-testid={testId}
    >
      <figcaption className="mb-3 font-semibold text-gray-900 dark:text-white">{title}</figcaption>
      {empty || chart.labels.length === 0 ? (
        <p className="py-8 text-center text-sm text-gray-500 dark:text-gray-400" data-testid={`${testId}-empty`}>
          {emptyText}
        </p>
      ) : (
        <>
          <div className="text-gray-600 dark:text-gray-300" aria-hidden="true" data-testid={`${testId}-chart`}>
            <Suspense
              fallback={
                <div className="flex items-center justify-center" style={{ height: chart.height ?? 240 }}>
                  <Spinner label={t('common.loading')} />
                </div>
              }
            >
              <ChartCanvas {...chart} onPoint={onOpen} />
            </Suspense>
          </div>
          <details className="mt-3 text-sm">
            <summary className="cursor-pointer text-brand-700 dark:text-brand-300">{t('dashboards.asTable')}</summary>
            <div className="mt-2 overflow-x-auto">
              <table className="w-full">
                <caption className="sr-only">{title}</caption>
                <thead>
                  <tr className="text-left text-xs text-gray-500 uppercase dark:text-gray-400">
                    <th scope="col" className="py-1 pr-2">
                      {column}
                    </th>
                    {chart.series.map((item) => (
                      <th key={item.label} scope="col" className="py-1 pr-2 text-right">
                        {item.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="divide-y divide-gray-100 dark:divide-gray-800">
                  {chart.labels.map((label, index) => (
                    <tr key={`${index}-${label}`} data-testid={`${testId}-row`}>
                      <th scope="row" className="py-1 pr-2 text-left font-normal">
                        {onOpen ? (
                          <button
                            type="button"
                            className="text-brand-700 hover:underline dark:text-brand-300"
                            onClick={() => onOpen(index)}
                            aria-label={t('dashboards.openCallsOf', { name: label })}
                          >
                            {label}
                          </button>
                        ) : (
                          label
                        )}
                      </th>
                      {chart.series.map((item) => (
                        <td key={item.label} className="py-1 pr-2 text-right tabular-nums">
                          {cell(item.values[index] ?? null, chart.format)}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </figure>
  );
}
