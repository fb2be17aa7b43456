import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../lib/store';
import { PageHeading } from '../../components/page-heading';
import { displayName, initialsOf, roleOf } from '../../lib/stored-user';

/** The signed-in user's own details. */
export default function ProfilePage(): ReactElement {
  const { t } = useTranslation();
  const user = useAppSelector((state) => state.session.user);
  const role = roleOf(user);
  const rows: Array<[id: string, term: string, value: string]> = [
    ['name', t('profile.name'), displayName(user) || '—'],
    ['email', t('profile.email'), user?.email ?? '—'],
    ['role', t('profile.role'), role ? t(`roles.${role}`) : t('roles.none')],
  ];
  return (
    <section aria-labelledby="page-heading">
      <PageHeading>{t('pages.profile')}</PageHeading>
      <div className="max-w-2xl rounded-2xl border border-gray-200 bg-white p-6 dark:border-gray-800 dark:bg-gray-900">
        <div className="mb-6 flex items-center gap-4">
          {user?.avatar ? (
            <img src={user.avatar} alt="" className="size-16 rounded-full object-cover" />
          ) : (
            <span aria-hidden="true" className="inline-flex size-16 items-center justify-center rounded-full bg-brand-100 text-xl font-semibold text-brand-800 dark:bg-brand-900 dark:text-brand-100">
              {initialsOf(user)}
            </span>
          )}
          <p className="text-lg font-medium text-gray-900 dark:text-white">{displayName(user)}</p>
        </div>
        <dl className="grid grid-cols-1 gap-4 sm:grid-cols-[10rem_1fr]">
          {rows.map(([id, term, value]) => (
            <div key={id} className="contents">
              <dt className="text-sm font-medium text-gray-600 dark:text-gray-400">{term}</dt>
              <dd className="text-sm text-gray-900 dark:text-gray-100" data-testid={`profile-${id}`}>{value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
