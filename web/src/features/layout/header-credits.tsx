// The header's bell (in-app notifications, asked again every minute) and, when the person has a
// monthly cap, what is left of it. Loaded lazily by the header: the signed-in shell has a budget.
import { useMemo, type ReactElement } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { DropdownMenu } from '../../components/dropdown-menu';
import { Icon } from '../../components/icons';
import { useFeatureTranslation } from '../../i18n/feature';
import { formatCredits } from '../../lib/credits-format';
import { catalogue as headerCreditsCatalogue } from './header-credits-i18n';
import { useMarkAllNotificationsReadMutation, useMarkNotificationReadMutation, useMyCreditsQuery, useNotificationsQuery } from './notifications-api';

/** Often enough that an alert shows within a minute, rare enough to cost nothing. */
const POLL_MS = 60_000;
const POLL = { pollingInterval: POLL_MS, skipPollingIfUnfocused: true } as const;
/** A notification's link is followed only within the app: a path, never `//host` (nor `/\host`, which browsers read the same). */
const IN_APP = /^\/(?![/\\])/;

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

function Bell(): ReactElement {
  const { t, i18n } = useFeatureTranslation(headerCreditsCatalogue);
  const navigate = useNavigate();
  const { data } = useNotificationsQuery(undefined, POLL);
  const [markRead] = useMarkNotificationReadMutation();
  const [markAll] = useMarkAllNotificationsReadMutation();
  const date = useMemo(() => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }), [i18n.language]);
  const unread = data?.unread ?? 0;
  const items = data?.items ?? [];
  const label = unread ? t('bell.labelUnread', { count: unread }) : t('bell.label');
  return (
    <DropdownMenu
      label={label}
      testId="notifications-bell"
      buttonClassName="relative inline-flex size-10 items-center justify-center rounded-full border border-gray-200 text-gray-600 hover:bg-gray-100 dark:border-gray-700 dark:text-gray-300 dark:hover:bg-gray-800"
      button={
        <>
          <Icon name="bell" strokeWidth={2} />
          {unread ? <span className="absolute -top-1 -right-1 min-w-5 rounded-full bg-red-600 px-1 text-center text-xs leading-5 font-semibold text-white" data-testid="notifications-unread">{unread > 99 ? '99+' : unread}</span> : null}
        </>
      }
      header={<p className="w-[min(20rem,calc(100vw-2rem))] px-3 pb-2 text-sm font-semibold text-gray-900 dark:text-white">{items.length ? t('bell.label') : t('bell.none')}</p>}
      entries={[
        ...(unread ? [{ key: 'all', label: t('bell.markAll'), onSelect: () => void markAll(), testId: 'notifications-read-all' }] : []),
        ...items.map((item) => ({
          key: item._id,
          testId: 'notification',
          onSelect: () => {
            if (!item.readAt) void markRead(item._id);
            if (item.link && IN_APP.test(item.link)) void navigate(item.link);
          },
          label: (
            <span className="block max-w-[min(18rem,calc(100vw-4rem))]">
              <span className={`block ${item.readAt ? '' : 'font-semibold'}`}>
                {item.readAt ? null : <span className="mr-1.5 inline-block size-2 rounded-full bg-brand-600" aria-label={t('bell.unread')} role="img" />}
                {item.title}
              </span>
              <span className="block text-xs text-gray-600 dark:text-gray-400">{item.body}</span>
              <time dateTime={item.createdAt} className="block text-xs text-gray-500 dark:text-gray-400">{date.format(new Date(item.createdAt))}</time>
            </span>
          ),
        })),
      ]}
    />
  );
}
