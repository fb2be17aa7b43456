// One breakdown of the analytics (by agent, by client, by tag): the app's data table with a CSV of
// the same rows and, per row, the calls behind it.
import type { ReactElement } from 'react';
import { DataTable, type DataColumn } from '../../components/data-table';
import { buttonClass } from '../../components/form-parts';
import { Icon } from '../../components/icons';
import { useFeatureTranslation } from '../../i18n/feature';
import { downloadCsv, toCsv, type CsvCell } from './csv';
import { catalogue } from './i18n';

export interface BreakdownColumn<T> extends DataColumn<T> {
  /** The cell as the CSV writes it: raw figures (seconds, shares 0–1), not the screen's text. */
  csv: (row: T) => CsvCell;
  /** The CSV's header (default: the screen's). */
  csvHeader?: string;
}

export function breakdownCsv<T>(columns: Array<BreakdownColumn<T>>, rows: T[]): string {
  return toCsv(
    columns.map((column) => column.csvHeader ?? column.header),
    rows.map((row) => columns.map((column) => column.csv(row))),
  );
}

export function BreakdownTable<T extends object>({
  title,
  testId,
  columns,
  rows,
  rowId,
  rowName,
  fileName,
  onOpen,
}: {
  title: string;
  testId: string;
  columns: Array<BreakdownColumn<T>>;
  rows: T[];
  rowId: (row: T) => string;
  rowName: (row: T) => string;
  fileName: string;
  onOpen: (row: T) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  return (
    <section aria-labelledby={`${testId}-heading`} className="min-w-0" data-testid={testId}>
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${testId}-heading`} className="text-lg font-semibold text-gray-900 dark:text-white">
          {title}
        </h2>
        <button
          type="button"
          className={`${buttonClass.secondary} inline-flex items-center gap-2`}
          disabled={rows.length === 0}
          onClick={() => downloadCsv(fileName, breakdownCsv(columns, rows))}
          data-testid={`${testId}-csv`}
        >
          <Icon name="download" className="size-4" />
          {t('dashboards.csv')}
        </button>
      </div>
      <DataTable
        label={title}
        columns={columns}
        rows={rows}
        rowId={rowId}
        emptyText={t('dashboards.noCalls')}
        rowActions={(row) => (
          <button
            type="button"
            className={buttonClass.row}
            onClick={() => onOpen(row)}
            aria-label={t('dashboards.openCallsOf', { name: rowName(row) })}
            data-testid="open-calls"
          >
            {t('dashboards.openCalls')}
          </button>
        )}
      />
    </section>
  );
}
