// /inbox: the person's own notifications and e-mails, newest first, unread in bold; mark read or
// unread; a kind filter (`?kind=`); "Load more" follows the server's nextCursor. Each page of the
// list is its own query, so marking a message read refreshes the pages already shown.
import { useState, type ReactElement } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { InboxKind } from '@earshot/contracts';
import { buttonClass, fieldInputClass } from '../../components/form-field';
import { Icon } from '../../components/icons';
import { PageHeading } from '../../components/page-heading';
import { PageSpinner } from '../../components/spinner';
import { ToastRegion, useToasts } from '../../components/toast';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { formatDateTime } from '../../lib/format-time';
import { withParams } from '../../lib/search-params';
import { catalogue } from './i18n';
import { useInboxQuery, useSetInboxReadMutation } from './inbox-api';
import { KIND_ICON, KINDS, isInboxKind, type InboxItem } from './model';

type Show = ReturnType<typeof useToasts>['show'];

export default function InboxPage(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [params, setParams] = useSearchParams();
  const raw = params.get('kind');
  const kind = isInboxKind(raw) ? raw : undefined;
  const first = useInboxQuery({ kind });
  const { toasts, show, dismiss } = useToasts();
  return (
    <section aria-labelledby="page-heading" className="min-w-0">
      <ToastRegion toasts={toasts} onDismiss={dismiss} closeLabel={t('inboxPage.close')} />
      <PageHeading>{t('pages.inbox')}</PageHeading>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <div>
          <p className="text-sm text-gray-700 dark:text-gray-300">{t('inboxPage.intro')}</p>
          {first.data ? (
            <p className="mt-1 text-sm font-semibold text-gray-900 dark:text-white" data-testid="inbox-unread">
              {t('inboxPage.unreadCount', { count: first.data.unread })}
            </p>
          ) : null}
        </div>
        <label className="flex w-full max-w-60 flex-col gap-1 text-xs font-medium text-gray-600 dark:text-gray-400">
          {t('inboxPage.kind')}
          <select
            className={fieldInputClass}
            value={kind ?? ''}
            onChange={(event) => setParams(withParams(params, { kind: event.target.value }))}
            data-testid="inbox-kind"
          >
            <option value="">{t('inboxPage.allKinds')}</option>
            {KINDS.map((option) => (
              <option key={option} value={option}>
                {t(`inboxPage.kinds.${option}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {/* A new filter starts again from the first page. */}
      <MessageList key={kind ?? ''} kind={kind} show={show} />
    </section>
  );
}

function MessageList({ kind, show }: { kind: InboxKind | undefined; show: Show }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  return (
    <ul
      aria-label={t('inboxPage.list')}
      className="divide-y divide-gray-200 overflow-hidden rounded-xl border border-gray-200 bg-white dark:divide-gray-800 dark:border-gray-800 dark:bg-gray-900"
      data-testid="inbox-list"
    >
      {cursors.map((cursor, index) => (
        <MessagePage
          key={cursor ?? ''}
          kind={kind}
          cursor={cursor}
          first={index === 0}
          last={index === cursors.length - 1}
          show={show}
          onMore={(next) => setCursors((list) => [...list, next])}
        />
      ))}
    </ul>
  );
}

function MessagePage({
  kind,
  cursor,
  first,
  last,
  show,
  onMore,
}: {
  kind: InboxKind | undefined;
  cursor: string | undefined;
  first: boolean;
  last: boolean;
  show: Show;
  onMore: (cursor: string) => void;
}): ReactElement | null {
  const { t } = useFeatureTranslation(catalogue);
  const page = useInboxQuery({ kind, cursor });
  const status = (content: ReactElement) => <li className="p-4">{content}</li>;
  if (page.isLoading) return status(<PageSpinner label={t('inboxPage.loading')} />);
  if (page.isError || !page.data) {
    return status(
      <div
        role="alert"
        className="flex flex-wrap items-center gap-3 text-sm text-red-800 dark:text-red-200"
        data-testid="inbox-error"
      >
        {errorMessage(page.error) ?? t('inboxPage.error')}
        <button type="button" className={buttonClass.secondary} onClick={() => void page.refetch()}>
          {t('inboxPage.retry')}
        </button>
      </div>,
    );
  }
  if (first && page.data.items.length === 0) {
    return status(
      <p className="py-6 text-center text-sm text-gray-600 dark:text-gray-400" data-testid="inbox-empty">
        {kind ? t('inboxPage.emptyKind') : t('inboxPage.empty')}
      </p>,
    );
  }
  const next = page.data.nextCursor;
  return (
    <>
      {page.data.items.map((item) => (
        <MessageRow key={item._id} item={item} show={show} />
      ))}
      {last && next ? (
        <li className="p-3 text-center">
          <button type="button" className={buttonClass.secondary} onClick={() => onMore(next)} data-testid="inbox-more">
            {t('inboxPage.loadMore')}
          </button>
        </li>
      ) : null}
    </>
  );
}

function MessageRow({ item, show }: { item: InboxItem; show: Show }): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const [setRead, state] = useSetInboxReadMutation();
  const toggle = async () => {
    try {
      await setRead({ id: item._id, read: !item.read }).unwrap();
    } catch (error) {
      show({ kind: 'error', title: t('inboxPage.failed'), detail: errorMessage(error) });
    }
  };
  const when = formatDateTime(item.createdAt, i18n.language);
  return (
    <li
      className={`flex items-start gap-3 p-3 sm:p-4 ${item.read ? '' : 'bg-brand-50/60 dark:bg-brand-900/20'}`}
      data-testid="inbox-item"
      data-read={item.read}
    >
      <span
        className="mt-0.5 inline-flex size-8 shrink-0 items-center justify-center rounded-full bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-200"
        title={t(`inboxPage.kinds.${item.kind}`)}
      >
        <Icon name={KIND_ICON[item.kind]} width={16} height={16} />
        <span className="sr-only">{t(`inboxPage.kinds.${item.kind}`)}</span>
      </span>
      <div className="min-w-0 flex-1">
        <Link
          to={`/inbox-details?id=${encodeURIComponent(item._id)}`}
          className={`block break-words text-sm text-gray-900 hover:underline dark:text-white ${item.read ? '' : 'font-semibold'}`}
          data-testid="inbox-item-link"
        >
          {item.read ? null : (
            <span
              className="mr-1.5 inline-block size-2 rounded-full bg-brand-600"
              role="img"
              aria-label={t('inboxPage.unread')}
            />
          )}
          {item.title}
        </Link>
        <p className="mt-0.5 line-clamp-2 text-sm break-words text-gray-600 dark:text-gray-400">{item.body}</p>
        <time dateTime={item.createdAt} className="mt-0.5 block text-xs text-gray-600 dark:text-gray-400">
          {when}
        </time>
      </div>
      {/* The visible words first, then which message: the accessible name starts with what is seen. */}
      <button
        type="button"
        onClick={() => void toggle()}
        disabled={state.isLoading}
        className={`${buttonClass.row} shrink-0`}
        data-testid="inbox-toggle-read"
      >
        {item.read ? t('inboxPage.markUnread') : t('inboxPage.markRead')}
        <span className="sr-only">: {item.title}</span>
      </button>
    </li>
  );
}
