import type { ReactElement } from 'react';
import { buttonClass } from './form-field';

/** Previous / Next under a paginated table, with "page x of y" (labels come from the page's catalogue). */
export function Pager({
  page,
  totalPages,
  onPage,
  info,
  previous,
  next,
}: {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
  info: string;
  previous: string;
  next: string;
}): ReactElement {
  return (
    <nav className="flex items-center justify-between gap-4" aria-label={info}>
      <p className="text-sm text-gray-600 dark:text-gray-400" data-testid="page-info">
        {info}
      </p>
      <div className="flex gap-2">
        <button type="button" className={buttonClass.secondary} disabled={page <= 1} onClick={() => onPage(page - 1)}>
          {previous}
        </button>
        <button
          type="button"
          className={buttonClass.secondary}
          disabled={page >= totalPages}
          onClick={() => onPage(page + 1)}
        >
          {next}
        </button>
      </div>
    </nav>
  );
}
