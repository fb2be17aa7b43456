import { useMemo, type ReactElement } from 'react';
import { PageSpinner } from '../../components/spinner';
import { Alert } from '../../components/text-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { formatCredits } from '../../lib/credits-format';
import { catalogue } from './i18n';
import { priceStates, subjectName, type Subject } from './model';
import { usePriceHistoryQuery } from './pricing-api';
import { formatDateTime } from '../../lib/format-time';

const th = 'px-3 py-2 text-left text-xs font-semibold tracking-wide text-gray-600 uppercase dark:text-gray-400';
const td = 'px-3 py-2 text-sm';
const TONES = {
  scheduled: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  current: 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200',
  past: 'bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-300',
};

/** Every price of one model or engine, newest first, scheduled ones included. */
export function PriceHistory({ subject }: { subject: Subject }): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const history = usePriceHistoryQuery(
    subject.modelId ? { modelId: subject.modelId } : { engine: subject.engine ?? '' },
  );
  const states = useMemo(() => priceStates(history.data ?? []), [history.data]);
  if (history.isLoading) return <PageSpinner label={t('common.loading')} />;
  if (history.error) return <Alert>{errorMessage(history.error) ?? t('pricing.loadFailed')}</Alert>;
  const items = history.data ?? [];
  if (items.length === 0)
    return <p className="text-sm text-gray-600 dark:text-gray-400">{t('pricing.historyEmpty')}</p>;
  return (
    <div
      className="overflow-x-auto"
      tabIndex={0}
      role="region"
      aria-label={t('pricing.historyFor', { name: subjectName(subject, t) })}
    >
      <table className="min-w-full divide-y divide-gray-200 dark:divide-gray-800" data-testid="price-history">
        <thead>
          <tr>
            <th scope="col" className={th}>
              {t('pricing.columns.when')}
            </th>
            <th scope="col" className={th}>
              {t('pricing.columns.unit')}
            </th>
            <th scope="col" className={th}>
              {t('pricing.columns.credits')}
            </th>
            <th scope="col" className={th}>
              {t('pricing.columns.state')}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-100 dark:divide-gray-800">
          {items.map((price) => {
            const state = states.get(price._id) ?? 'past';
            return (
              <tr key={price._id} data-testid="history-row">
                <td className={`${td} whitespace-nowrap`}>
                  <time dateTime={price.effectiveFrom}>{formatDateTime(price.effectiveFrom, i18n.language)}</time>
                </td>
                <td className={td}>{t(`pricing.unitNames.${price.unit}`)}</td>
                <td className={`${td} tabular-nums`}>{formatCredits(price.credits, i18n.language)}</td>
                <td className={td}>
                  <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${TONES[state]}`}>
                    {t(`pricing.${state}`)}
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
