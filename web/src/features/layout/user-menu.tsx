import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { ownImage } from '../../lib/own-image';
import { useSignOut } from '../../lib/session-api';
import { useAppSelector } from '../../lib/store';
import { DropdownMenu } from '../../components/dropdown-menu';
import { Icon } from '../../components/icons';
import { displayName, initialsOf } from '../../lib/stored-user';

export function UserMenu(): ReactElement {
  const { t } = useTranslation();
  const user = useAppSelector((state) => state.session.user);
  const signOut = useSignOut();
  const name = displayName(user);
  return (
    <DropdownMenu
      label={t('header.userMenu')}
      buttonNamedByContent
      testId="user-menu"
      buttonClassName="inline-flex items-center gap-2 rounded-full p-1 pr-2 text-sm text-gray-700 hover:bg-gray-100 dark:text-gray-200 dark:hover:bg-gray-800"
      button={
        <>
          {ownImage(user?.avatar) ? (
            <img src={ownImage(user?.avatar)!} alt="" className="size-9 rounded-full object-cover" />
          ) : (
            <span
              aria-hidden="true"
              className="inline-flex size-9 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-800 dark:bg-brand-900 dark:text-brand-100"
            >
              {initialsOf(user)}
            </span>
          )}
          <span className="sr-only">{t('header.userMenu')}: </span>
          <span className="sr-only max-w-40 truncate font-medium sm:not-sr-only" data-testid="user-name">
            {name}
          </span>
          <Icon name="chevronDown" />
        </>
      }
      header={
        <div className="mb-2 border-b border-gray-200 px-3 pb-3 dark:border-gray-700">
          <p className="font-medium text-gray-900 dark:text-white">{name}</p>
          {user?.email && <p className="truncate text-xs text-gray-600 dark:text-gray-400">{user.email}</p>}
        </div>
      }
      entries={[
        { key: 'profile', label: t('header.editProfile'), to: '/profile', icon: <Icon name="user" /> },
        { key: 'settings', label: t('header.accountSettings'), to: '/profile', icon: <Icon name="settings" /> },
        { key: 'support', label: t('header.support'), to: '/support', icon: <Icon name="help" /> },
        {
          key: 'sign-out',
          label: t('header.signOut'),
          onSelect: () => void signOut(),
          icon: <Icon name="logout" />,
          testId: 'sign-out',
        },
      ]}
    />
  );
}
