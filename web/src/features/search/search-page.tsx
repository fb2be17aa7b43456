// /search: full-text search over the company's transcripts. The words, the order and the
// filters live in the URL (a reload or a shared link shows the same results); results are
// recordings with their matching passages, each opening the viewer at that moment; Load more
// follows the server's keyset cursor.
import { useMemo, type ReactElement } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { SearchSort } from '@earshot/contracts';
import { fieldInputClass } from '../../components/form-field';
import {
  LibraryFiltersForm,
  mayReadClients,
  useClientOptionsQuery,
  useTagsQuery,
  filtersFromParams,
  paramsWithFilters,
  type LibraryFilters,
} from '../../entities/recordings';
import { PageHeading } from '../../components/page-heading';
import { SearchForm } from '../../components/search-form';
import { Spinner } from '../../components/spinner';
import { useFeatureTranslation } from '../../i18n/feature';
import { useCompanyOptionsQuery } from '../../entities/companies';
import { formatClock, formatDate } from '../../lib/format-time';
import { withParams } from '../../lib/search-params';
import { useAppSelector } from '../../lib/store';
import { roleOf } from '../../lib/stored-user';
import { catalogue } from './i18n';
import { useSearchInfiniteQuery } from './search-api';
import { Snippet } from './snippet';

const SORTS: readonly SearchSort[] = ['newest', 'best'];
const button =
  'rounded-lg border border-gray-300 px-4 py-2 text-sm font-medium text-gray-700 hover:bg-gray-50 disabled:opacity-60 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800';

export default function SearchPage(): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const role = useAppSelector((state) => roleOf(state.session.user));
  const isHost = role === 'HOST_ADMIN';
  const [params, setParams] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  const sort: SearchSort = params.get('sort') === 'best' ? 'best' : 'newest';
  // The search has no status filter: only transcribed recordings have text to find.
  const filters = useMemo((): Omit<LibraryFilters, 'status'> => {
    const { status: _status, ...rest } = filtersFromParams(params);
    return rest;
  }, [params]);
  const results = useSearchInfiniteQuery({ q, sort, ...filters }, { skip: !q });
  const clients = useClientOptionsQuery(filters.companyId, { skip: !mayReadClients(role) });
  const companies = useCompanyOptionsQuery(undefined, { skip: !isHost });
  const tags = useTagsQuery(filters.companyId, { skip: isHost && !filters.companyId });
  const items = useMemo(() => results.data?.pages.flatMap((page) => page.items) ?? [], [results.data]);

  const onSearch = (text: string) => setParams(withParams(params, { q: text }));
  const onFilters = (next: LibraryFilters) => setParams(paramsWithFilters(params, next));

  let body: ReactElement;
  if (!q)
    body = (
      <p className="py-10 text-center text-sm text-gray-600 dark:text-gray-400" data-testid="search-start">
        {t('search.start')}
      </p>
    );
  else if (results.isError) {
    body = (
      <div role="alert" className="flex flex-col items-center gap-3 py-10 text-sm text-red-700 dark:text-red-300">
        {t('search.error')}
        <button type="button" className={button} onClick={() => void results.refetch()}>
          {t('search.retry')}
        </button>
      </div>
    );
  } else if (results.isLoading)
    body = (
      <div className="py-10">
        <Spinner label={t('common.loading')} />
      </div>
    );
  else if (items.length === 0)
    body = (
      <p className="py-10 text-center text-sm text-gray-600 dark:text-gray-400" data-testid="search-empty">
        {t('search.noResults')}
      </p>
    );
  else {
    body = (
      <>
        <ol className="flex flex-col gap-4" aria-label={t('search.results')} aria-busy={results.isFetching}>
          {items.map((item) => (
            <li
              key={item.fileId}
              className="rounded-2xl border border-gray-200 bg-white p-4 dark:border-gray-800 dark:bg-gray-900"
              data-testid="search-result"
              data-file-id={item.fileId}
            >
              <div className="mb-2 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                <h2 className="min-w-0 break-words text-base font-semibold text-gray-900 dark:text-white">
                  <Link
                    to={`/transcripts/${item.fileId}`}
                    className="hover:underline"
                    title={t('search.openRecording')}
                  >
                    {item.originalName}
                  </Link>
                </h2>
                <span className="text-xs text-gray-600 dark:text-gray-400">
                  {formatDate(item.uploadDate, i18n.language)}
                </span>
              </div>
              <ul className="flex flex-col gap-1">
                {item.hits.map((hit) => (
                  <li key={hit.segmentId}>
                    <Link
                      to={`/transcripts/${item.fileId}?t=${hit.start}`}
                      className="block rounded-lg px-2 py-1.5 text-sm text-gray-800 hover:bg-gray-50 dark:text-gray-200 dark:hover:bg-gray-800"
                      data-testid="search-hit"
                      data-start={hit.start}
                    >
                      <span
                        className="mr-2 text-xs font-medium text-gray-600 dark:text-gray-400"
                        data-testid="hit-meta"
                      >
                        {t('search.hitAt', { speaker: hit.speakerName, time: formatClock(hit.start) })}
                      </span>
                      <Snippet html={hit.snippet} />
                    </Link>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
        {results.hasNextPage && (
          <div className="mt-4 flex justify-center">
            <button
              type="button"
              className={button}
              disabled={results.isFetchingNextPage}
              onClick={() => void results.fetchNextPage()}
              data-testid="search-load-more"
            >
              {t('search.loadMore')}
            </button>
          </div>
        )}
      </>
    );
  }

  return (
    <section aria-labelledby="page-heading">
      <PageHeading>{t('pages.search')}</PageHeading>
      <div className="mb-2 flex flex-wrap items-end gap-3">
        <SearchForm
          label={t('search.label')}
          placeholder={t('search.placeholder')}
          value={q}
          applyLabel={t('search.apply')}
          onSearch={onSearch}
        />
        <label className="flex w-full flex-col gap-1 text-sm font-medium text-gray-700 sm:w-48 dark:text-gray-300">
          {t('search.sort')}
          <select
            className={fieldInputClass}
            value={sort}
            onChange={(event) => setParams(withParams(params, { sort: event.target.value === 'best' ? 'best' : null }))}
            data-testid="search-sort"
          >
            {SORTS.map((value) => (
              <option key={value} value={value}>
                {t(`search.${value}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="mb-4 text-xs text-gray-600 dark:text-gray-400">{t('search.hint')}</p>
      <LibraryFiltersForm
        value={filters}
        onChange={onFilters}
        withStatus={false}
        tags={tags.data ?? []}
        clients={mayReadClients(role) ? (clients.data ?? []) : null}
        companies={isHost ? (companies.data ?? []) : null}
      />
      {body}
    </section>
  );
}
