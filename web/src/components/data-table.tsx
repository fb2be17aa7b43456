// The admin screens' table: TanStack Table (headless) for sorting and column visibility; this
// file owns the markup, the loading/empty/error states and the scrolling: the table scrolls in its
// own region under a sticky header, sideways too (with a visible hint below 768 px). Pages describe columns with DataColumn and never touch
// TanStack's types, so the library stays inside the lazy chunks of the pages that use it.
import { useMemo, useState, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  columnVisibilityFeature,
  createSortedRowModel,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type SortingState,
  type ColumnVisibilityState,
  type RowData,
} from '@tanstack/react-table';
import { FloatingMenuContext } from './dropdown-menu';
import { ScrollHint } from './scroll-hint';
import { Spinner } from './spinner';

export interface DataColumn<T> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** Makes the column sortable: the rows given are ordered by this value (nulls last). */
  sortValue?: (row: T) => string | number | null;
  /** Columns can be hidden from the Columns menu unless this is false. */
  canHide?: boolean;
  className?: string;
}

export interface DataTableProps<T> {
  /** The table's accessible name. */
  label: string;
  columns: Array<DataColumn<T>>;
  rows: T[];
  rowId: (row: T) => string;
  loading?: boolean;
  /** Shown instead of the rows, with Retry when `onRetry` is given. */
  error?: string | null;
  onRetry?: () => void;
  emptyText: string;
  /** The row's own buttons (View, Edit, Delete...), in a last column. */
  rowActions?: (row: T) => ReactNode;
  /** Column ids hidden at first. */
  initiallyHidden?: string[];
  /** Below the rows: "Load more", a pager... */
  footer?: ReactNode;
  testId?: string;
}

const features = tableFeatures({ rowSortingFeature, columnVisibilityFeature, sortedRowModel: createSortedRowModel() });
type Features = typeof features;

// The header stays in view while the rows scroll under it, so it needs opaque backgrounds: the
// dark shade is gray-800 at 60 % laid over the card's gray-900, mixed into one solid colour. Its
// lower edge is a pseudo-element, because a collapsed border stays behind with the first row.
// Layers: the sticky row buttons (10) under the header cells (11), the header's actions cell (12)
// over both, all under the app header (20) and the Columns menu (30). A sticky cell holding an
// open menu rises to 30: the menu's own 40 counts only inside its cell, which left it under the
// header and the other rows' buttons.
const th =
  "sticky top-0 z-[11] bg-gray-50 px-4 py-3 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-gray-600 uppercase after:absolute after:inset-x-0 after:bottom-0 after:h-px after:bg-gray-200 after:content-[''] dark:bg-[color-mix(in_oklab,var(--color-gray-800)_60%,var(--color-gray-900))] dark:text-gray-400 dark:after:bg-gray-800";
const td = 'px-4 py-3 align-top text-sm text-gray-800 dark:text-gray-200';
// From 768 px the row's buttons stay at the right edge while the other columns scroll under them:
// a table wider than a laptop's content area would otherwise cut them off ("De…" of Delete at
// 1280 px). On a phone they scroll with the row instead, as the last column: held at the edge,
// "Set price · History" took 40 % of the 341 px and covered the cells beside them. Opaque
// backgrounds, so scrolled cells do not show through; without a footer the region rounds its lower
// corners, or the last sticky cell would paint over the table's rounded border.
const stickyActions = 'md:sticky md:right-0 md:shadow-[-8px_0_8px_-8px_rgba(0,0,0,0.25)]';

function compare(a: string | number, b: string | number): number {
  if (a === b) return 0;
  return typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));
}

function toColumnDefs<T extends RowData>(columns: Array<DataColumn<T>>): Array<ColumnDef<Features, T, unknown>> {
  return columns.map((column) => {
    const { sortValue } = column;
    return {
      id: column.id,
      // undefined, not null: sortUndefined keeps empty values last in both directions.
      accessorFn: (row: T) => sortValue?.(row) ?? undefined,
      header: column.header,
      enableSorting: Boolean(sortValue),
      enableHiding: column.canHide !== false,
      sortUndefined: 'last',
      sortFn: (a, b, id) => compare(a.getValue<string | number>(id), b.getValue<string | number>(id)),
    } satisfies ColumnDef<Features, T, unknown>;
  });
}

export function DataTable<T extends RowData>({
  label,
  columns,
  rows,
  rowId,
  loading = false,
  error = null,
  onRetry,
  emptyText,
  rowActions,
  initiallyHidden = [],
  footer,
  testId,
}: DataTableProps<T>): ReactElement {
  const { t } = useTranslation();
  const [sorting, setSorting] = useState<SortingState>([]);
  const [columnVisibility, setColumnVisibility] = useState<ColumnVisibilityState>(() =>
    Object.fromEntries(initiallyHidden.map((id) => [id, false])),
  );
  const columnDefs = useMemo(() => toColumnDefs(columns), [columns]);
  const byId = useMemo(() => new Map(columns.map((column) => [column.id, column])), [columns]);
  const table = useTable({
    features,
    columns: columnDefs,
    data: rows,
    getRowId: (row) => rowId(row),
    state: { sorting, columnVisibility },
    onSortingChange: setSorting,
    onColumnVisibilityChange: setColumnVisibility,
  });
  const visible = table.getVisibleLeafColumns();
  const bodyRows = table.getRowModel().rows;

  let state: ReactNode = null;
  if (error) {
    state = (
      <div role="alert" className="flex flex-col items-center gap-3 text-red-700 dark:text-red-300">
        <span>{error}</span>
        {onRetry && (
          <button
            type="button"
            onClick={onRetry}
            className="rounded-lg border border-gray-300 px-3 py-1.5 text-sm text-gray-800 hover:bg-gray-50 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800"
          >
            {t('dataTable.retry')}
          </button>
        )}
      </div>
    );
  } else if (loading && rows.length === 0) {
    state = <Spinner label={t('common.loading')} />;
  } else if (rows.length === 0) {
    state = <span data-testid="data-table-empty">{emptyText}</span>;
  }

  return (
    <div
      className="rounded-2xl border border-gray-200 bg-white dark:border-gray-800 dark:bg-gray-900"
      data-testid={testId}
    >
      <div className="flex items-center justify-end gap-3 border-b border-gray-200 px-4 py-2 dark:border-gray-800">
        <ScrollHint className="mr-auto" />
        <details className="relative">
          <summary className="cursor-pointer list-none rounded-lg border border-gray-300 px-3 py-1.5 text-sm text-gray-700 hover:bg-gray-50 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800">
            {t('dataTable.columns')}
          </summary>
          <fieldset className="absolute right-0 z-30 mt-2 min-w-48 rounded-xl border border-gray-200 bg-white p-3 shadow-lg dark:border-gray-700 dark:bg-gray-900">
            <legend className="sr-only">{t('dataTable.columns')}</legend>
            {table
              .getAllLeafColumns()
              .filter((column) => column.getCanHide())
              .map((column) => (
                <label
                  key={column.id}
                  className="flex items-center gap-2 py-1 text-sm text-gray-700 dark:text-gray-200"
                >
                  <input
                    type="checkbox"
                    checked={column.getIsVisible()}
                    onChange={column.getToggleVisibilityHandler()}
                  />
                  {byId.get(column.id)?.header}
                </label>
              ))}
          </fieldset>
        </details>
      </div>
      {/* Focusable so a keyboard can scroll it; named for screen readers. Relative: the sr-only header
          text (absolutely positioned) must not widen the page past the scroller. It scrolls both ways
          itself (a sideways scroller cannot let its header stick to the page's scroll), so its height
          is bounded by the window less the app's header and the table's toolbar and footer; the
          padding keeps a row reached by keyboard from stopping under the sticky header. */}
      <div
        className={`relative max-h-[calc(100dvh-12rem)] scroll-pt-12 overflow-auto ${footer ? '' : 'rounded-b-2xl'}`}
        tabIndex={0}
        role="region"
        aria-label={label}
      >
        <table className="w-full min-w-[720px] border-collapse" aria-label={label} aria-busy={loading}>
          <thead>
            <tr>
              {visible.map((column) => {
                const sorted = column.getIsSorted();
                const header = byId.get(column.id)?.header ?? column.id;
                return (
                  <th
                    key={column.id}
                    scope="col"
                    className={th}
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                  >
                    {column.getCanSort() ? (
                      <button
                        type="button"
                        onClick={column.getToggleSortingHandler()}
                        className="inline-flex items-center gap-1 uppercase hover:text-gray-900 dark:hover:text-white"
                      >
                        {header}
                        <span aria-hidden="true">{sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}</span>
                      </button>
                    ) : (
                      header
                    )}
                  </th>
                );
              })}
              {rowActions && (
                <th scope="col" className={`${th} ${stickyActions} md:z-[12]`}>
                  <span className="sr-only">{t('dataTable.actions')}</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100 dark:divide-gray-800">
            {!state &&
              bodyRows.map((row) => (
                <tr
                  key={row.id}
                  className="group hover:bg-gray-50 dark:hover:bg-gray-800/40"
                  data-testid="data-table-row"
                >
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id} className={`${td} ${byId.get(cell.column.id)?.className ?? ''}`}>
                      {byId.get(cell.column.id)?.cell(row.original)}
                    </td>
                  ))}
                  {rowActions && (
                    <td
                      className={`${td} ${stickyActions} bg-white text-right whitespace-nowrap md:z-10 md:has-[[role=menu]]:z-30 group-hover:bg-gray-50 dark:bg-gray-900 dark:group-hover:bg-gray-800`}
                      data-testid="data-table-actions"
                    >
                      {/* Row menus open on the window: inside this scroller they were cut off at its edges. */}
                      <FloatingMenuContext.Provider value={true}>
                        {rowActions(row.original)}
                      </FloatingMenuContext.Provider>
                    </td>
                  )}
                </tr>
              ))}
          </tbody>
        </table>
        {/* Outside the table, whose minimum width is wider than a phone: as wide as the visible
            area and held there while the header scrolls, so the message wraps instead of being cut. */}
        {state && (
          <div className="sticky left-0 w-full max-w-[100vw] px-4 py-10 text-center text-sm break-words text-gray-500 dark:text-gray-400">
            {state}
          </div>
        )}
      </div>
      {footer && <div className="border-t border-gray-200 px-4 py-3 dark:border-gray-800">{footer}</div>}
    </div>
  );
}
