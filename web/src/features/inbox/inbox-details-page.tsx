// /inbox-details?id=…: one message — its kind, title, time, the body as plain text (it may hold
// anything a mail template or a notification carried: never rendered as HTML) and its link, a path
// inside the console, as a button. Opening a message marks it read. A notification whose event was
// also mailed says so and opens that e-mail (the inbox lists the pair once, as the notification).
import { useEffect, useRef, type ReactElement } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { buttonClass } from '../../components/form-field';
import { Icon } from '../../components/icons';
import { PageHeading } from '../../components/page-heading';
import { PageSpinner } from '../../components/spinner';
import { useFeatureTranslation } from '../../i18n/feature';
import { formatDateTime } from '../../lib/format-time';
import { isInAppLink } from '../../lib/in-app-link';
import { catalogue } from './i18n';
import { useInboxMessageQuery, useSetInboxReadMutation } from './inbox-api';
import { KIND_ICON } from './model';

const ID = /^[nm]-[0-9a-f-]{36}$/;

export default function InboxDetailsPage(): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const navigate = useNavigate();
  const id = useSearchParams()[0].get('id') ?? '';
  const valid = ID.test(id);
  const message = useInboxMessageQuery(id, { skip: !valid });
  const [setRead] = useSetInboxReadMutation();
  const marked = useRef<string | null>(null);
  const item = message.data;
  useEffect(() => {
    if (item && !item.read && marked.current !== item._id) {
      marked.current = item._id;
      void setRead({ id: item._id, read: true });
    }
  }, [item, setRead]);

  const back = (
    <Link
      to="/inbox"
      className="mb-4 inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline dark:text-brand-300"
      data-testid="inbox-back"
    >
      <span aria-hidden="true">←</span>
      {t('inboxPage.back')}
    </Link>
  );
  let content: ReactElement;
  if (!valid)
    content = (
      <p role="alert" className="text-sm text-gray-700 dark:text-gray-300" data-testid="inbox-details-missing">
        {t('inboxPage.noId')}
      </p>
    );
  else if (message.isLoading) content = <PageSpinner label={t('inboxPage.loading')} />;
  else if (!item) {
    const notFound = message.error && 'status' in message.error && message.error.status === 404;
    content = (
      <div
        role="alert"
        className="flex flex-wrap items-center gap-3 text-sm text-red-800 dark:text-red-200"
        data-testid="inbox-details-missing"
      >
        {notFound ? t('inboxPage.notFound') : t('inboxPage.error')}
        {notFound ? null : (
          <button type="button" className={buttonClass.secondary} onClick={() => void message.refetch()}>
            {t('inboxPage.retry')}
          </button>
        )}
      </div>
    );
  } else {
    content = (
      <article
        className="rounded-xl border border-gray-200 bg-white p-4 sm:p-6 dark:border-gray-800 dark:bg-gray-900"
        data-testid="inbox-message"
      >
        <p className="mb-2 inline-flex items-center gap-2 rounded-full bg-gray-100 px-2.5 py-0.5 text-xs font-medium text-gray-700 dark:bg-gray-800 dark:text-gray-200">
          <Icon name={KIND_ICON[item.kind]} width={14} height={14} />
          {t(`inboxPage.kinds.${item.kind}`)}
        </p>
        <h2
          className="text-lg font-semibold break-words text-gray-900 dark:text-white"
          data-testid="inbox-message-title"
        >
          {item.title}
        </h2>
        <p className="mt-1 text-xs text-gray-500 dark:text-gray-400">
          {t('inboxPage.received')}:{' '}
          <time dateTime={item.createdAt}>{formatDateTime(item.createdAt, i18n.language, 'fullDateTime')}</time>
        </p>
        <div
          className="mt-4 text-sm break-words whitespace-pre-wrap text-gray-800 dark:text-gray-200"
          data-testid="inbox-message-body"
        >
          {item.body}
        </div>
        {isInAppLink(item.link) ? (
          <button
            type="button"
            onClick={() => void navigate(item.link!)}
            className={`${buttonClass.primary} mt-6`}
            data-testid="inbox-message-link"
          >
            {t('inboxPage.open')}
          </button>
        ) : null}
        {item.emailId && ID.test(item.emailId) ? (
          <p
            className="mt-6 flex flex-wrap items-center gap-2 border-t border-gray-200 pt-4 text-sm text-gray-700 dark:border-gray-800 dark:text-gray-300"
            data-testid="inbox-message-email"
          >
            <Icon name={KIND_ICON.email} width={16} height={16} />
            {t('inboxPage.emailToo')}
            <Link
              to={`/inbox-details?id=${encodeURIComponent(item.emailId)}`}
              className="font-medium text-brand-700 hover:underline dark:text-brand-300"
              data-testid="inbox-message-email-link"
            >
              {t('inboxPage.openEmail')}
            </Link>
          </p>
        ) : null}
      </article>
    );
  }
  return (
    <section aria-labelledby="page-heading" className="min-w-0 max-w-3xl">
      {back}
      <PageHeading>{t('pages.inboxDetails')}</PageHeading>
      {content}
    </section>
  );
}
