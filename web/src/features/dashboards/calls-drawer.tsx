// The calls behind a chart's point or a table's row (GET /dashboards/calls with the page's filters
// narrowed to that period, agent, client or tag), in a drawer; each opens its transcript.
import { useMemo, type ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { Modal } from '../../components/modal';
import { PageSpinner } from '../../components/spinner';
import { Alert } from '../../components/text-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { formatClock } from '../../lib/format-time';
import { useDashboardCallsQuery, type CallsArgs } from './dashboards-api';
import { catalogue } from './i18n';

/** What a drawer shows: its heading and the query that finds its calls. */
export interface CallsTarget {
  title: string;
  query: CallsArgs;
}

const LIMIT = 100;

function CallList({ query }: { query: CallsArgs }): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const calls = useDashboardCallsQuery({ ...query, limit: LIMIT });
  const date = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }),
    [i18n.language],
  );
  if (calls.error) return <Alert>{errorMessage(calls.error) ?? t('dashboards.loadFailed')}</Alert>;
  if (!calls.data) return <PageSpinner label={t('common.loading')} />;
  const { items, total } = calls.data;
  if (items.length === 0)
    return (
      <p className="text-sm text-gray-600 dark:text-gray-400" data-testid="calls-empty">
        {t('dashboards.calls.empty')}
      </p>
    );
  return (
    <>
      <p className="mb-3 text-sm text-gray-600 dark:text-gray-400" data-testid="calls-total">
        {items.length < total
          ? t('dashboards.calls.some', { shown: items.length, total })
          : t('dashboards.calls.all', { count: total })}
      </p>
      <ul className="divide-y divide-gray-100 dark:divide-gray-800" data-testid="calls-list">
        {items.map((call) => (
          <li key={call.fileId} className="py-2">
            <Link
              to={`/transcripts/${encodeURIComponent(call.fileId)}`}
              className="font-medium break-all text-brand-700 hover:underline dark:text-brand-300"
            >
              {call.originalName}
            </Link>
            <span className="block text-xs text-gray-500 tabular-nums dark:text-gray-400">
              <time dateTime={call.date}>{date.format(new Date(call.date))}</time> UTC · {formatClock(call.seconds)}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

export function CallsDrawer({ target, onClose }: { target: CallsTarget | null; onClose: () => void }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  return (
    <Modal
      open={target !== null}
      label={target?.title ?? t('dashboards.calls.title')}
      onClose={onClose}
      testId="calls-drawer"
      placement="drawer"
      size="md"
    >
      {target ? (
        <>
          <div className="mb-3 flex items-start justify-between gap-2">
            <div>
              <h2 className="text-lg font-semibold">{target.title}</h2>
              <p className="text-xs text-gray-500 dark:text-gray-400">
                {t('dashboards.calls.range', { from: target.query.from, to: target.query.to })}
              </p>
            </div>
            <button
              type="button"
              onClick={onClose}
              aria-label={t('dashboards.close')}
              className="rounded-lg px-2 py-1 text-gray-500 hover:bg-gray-100 dark:hover:bg-gray-800"
            >
              ✕
            </button>
          </div>
          <CallList query={target.query} />
        </>
      ) : null}
    </Modal>
  );
}
