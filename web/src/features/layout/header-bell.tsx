// The header's bell: the unread count of the person's inbox (notifications and e-mails, asked
// again every minute) and the latest five; opening one marks it read and follows its link inside
// the app; "See all" opens /inbox. Part of the lazy header-credits chunk.
import { type ReactElement } from 'react';
import { useNavigate } from 'react-router-dom';
import { DropdownMenu } from '../../components/dropdown-menu';
import { Icon } from '../../components/icons';
import { useFeatureTranslation } from '../../i18n/feature';
import { formatDateTime } from '../../lib/format-time';
import { isInAppLink } from '../../lib/in-app-link';
import { catalogue as headerCreditsCatalogue } from './header-credits-i18n';
import { useBellInboxQuery, useMarkInboxReadMutation, useMarkBellMessageReadMutation } from './notifications-api';

/** Often enough that an alert shows within a minute, rare enough to cost nothing. */
export const POLL = { pollingInterval: 60_000, skipPollingIfUnfocused: true } as const;

export function Bell(): ReactElement {
  const { t, i18n } = useFeatureTranslation(headerCreditsCatalogue);
  const navigate = useNavigate();
  const { data } = useBellInboxQuery(undefined, POLL);
  const [markRead] = useMarkBellMessageReadMutation();
  const [markAll] = useMarkInboxReadMutation();
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
          {unread ? (
            <span
              className="absolute -top-1 -right-1 min-w-5 rounded-full bg-red-600 px-1 text-center text-xs leading-5 font-semibold text-white"
              data-testid="notifications-unread"
            >
              {unread > 99 ? '99+' : unread}
            </span>
          ) : null}
        </>
      }
      header={
        <p className="w-[min(20rem,calc(100vw-2rem))] px-3 pb-2 text-sm font-semibold text-gray-900 dark:text-white">
          {items.length ? t('bell.label') : t('bell.none')}
        </p>
      }
      entries={[
        ...(unread
          ? [{ key: 'all', label: t('bell.markAll'), onSelect: () => void markAll(), testId: 'notifications-read-all' }]
          : []),
        ...items.map((item) => ({
          key: item._id,
          testId: 'notification',
          onSelect: () => {
            if (!item.read) void markRead({ id: item._id, read: true });
            if (isInAppLink(item.link)) void navigate(item.link);
          },
          label: (
            <span className="block max-w-[min(18rem,calc(100vw-4rem))]">
              <span className={`block ${item.read ? '' : 'font-semibold'}`}>
                {item.read ? null : (
                  <span
                    className="mr-1.5 inline-block size-2 rounded-full bg-brand-600"
                    aria-label={t('bell.unread')}
                    role="img"
                  />
                )}
                {item.kind === 'email' ? (
                  <span className="mr-1 inline-flex align-[-3px]" role="img" aria-label={t('bell.email')}>
                    <Icon name="mail" width={16} height={16} />
                  </span>
                ) : null}
                {item.title}
              </span>
              <span className="line-clamp-2 block text-xs text-gray-600 dark:text-gray-400">{item.body}</span>
              <time dateTime={item.createdAt} className="block text-xs text-gray-500 dark:text-gray-400">
                {formatDateTime(item.createdAt, i18n.language)}
              </time>
            </span>
          ),
        })),
        {
          key: 'see-all',
          label: <span className="font-medium text-brand-700 dark:text-brand-300">{t('bell.seeAll')}</span>,
          to: '/inbox',
          testId: 'notifications-see-all',
        },
      ]}
    />
  );
}
