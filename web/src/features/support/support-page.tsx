import type { ReactElement } from 'react';
import { PageHeading } from '../../components/page-heading';
import { Spinner } from '../../components/spinner';
import { Alert, linkClass } from '../../components/text-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { useAppSelector } from '../../lib/store';
import { roleOf } from '../../lib/stored-user';
import { catalogue } from './i18n';
import { useSupportContactsQuery } from './support-api';

/**
 * Where to get help: the company's own administrators, who manage accounts, features and data
 * (the platform's operators reach the company through them).
 */
export default function SupportPage(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const platform = roleOf(useAppSelector((state) => state.session.user)) === 'HOST_ADMIN';
  const { data: contacts, isLoading, isError } = useSupportContactsQuery();
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4">
      <PageHeading>{t('pages.support')}</PageHeading>
      <section
        className="rounded-2xl border border-gray-200 bg-white p-4 sm:p-6 dark:border-gray-800 dark:bg-gray-900"
        data-testid="support-contacts"
      >
        <p className="mb-4 text-sm text-gray-700 dark:text-gray-300">
          {platform ? t('support.introPlatform') : t('support.intro')}
        </p>
        {isLoading && <Spinner label={t('pages.support')} />}
        {isError && <Alert>{t('support.loadFailed')}</Alert>}
        {contacts?.length === 0 && <p className="text-sm text-gray-600 dark:text-gray-400">{t('support.none')}</p>}
        {contacts && contacts.length > 0 && (
          <ul className="flex flex-col gap-3">
            {contacts.map((contact) => (
              <li key={contact.email} className="text-sm">
                <p className="font-medium text-gray-900 dark:text-white">{contact.name}</p>
                <a
                  className={`${linkClass} break-all`}
                  href={`mailto:${contact.email}`}
                  aria-label={t('support.write', { name: contact.name })}
                >
                  {contact.email}
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
