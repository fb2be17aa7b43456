// The header's bell (header-bell.tsx) and, when the person has a monthly cap, what is left of it.
// Loaded lazily by the header: the signed-in shell has a budget.
import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { useFeatureTranslation } from '../../i18n/feature';
import { formatCredits } from '../../lib/credits-format';
import { Bell, POLL } from './header-bell';
import { catalogue as headerCreditsCatalogue } from './header-credits-i18n';
import { useMyCreditsQuery } from './notifications-api';

export default function HeaderCredits(): ReactElement {
  return (
    <>
      <CapLeft />
      <Bell />
    </>
  );
}

function CapLeft(): ReactElement | null {
  const { t, i18n } = useFeatureTranslation(headerCreditsCatalogue);
  const { data } = useMyCreditsQuery(undefined, POLL);
  if (!data || data.monthlyCap === null || data.remaining === null) return null;
  const remaining = formatCredits(Math.max(0, data.remaining), i18n.language);
  const low = data.remaining <= data.monthlyCap * 0.2;
  return (
    <Link
      to="/usage"
      title={t('cap.title', { remaining, cap: formatCredits(data.monthlyCap, i18n.language) })}
      className={`hidden rounded-full px-3 py-1 text-xs font-medium whitespace-nowrap sm:inline-block ${low ? 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200' : 'bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-200'}`}
      data-testid="cap-left"
    >
      {t('cap.left', { remaining })}
    </Link>
  );
}
