import { lazy, Suspense, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { DropdownMenu } from '../../components/dropdown-menu';
import { Icon } from '../../components/icons';
import { languageEntries, LanguageSwitcher } from '../../components/language-switcher';
import { Logo } from '../../components/logo';
import { ThemeToggle } from '../../components/theme-toggle';
import { useText } from '../../i18n/text';
import { useTheme } from '../../components/use-theme';
import { SIDEBAR_ID } from './sidebar';
import { UserMenu } from './user-menu';

// The bell and the cap poll the server; they load after the shell, which has a size budget.
const HeaderCredits = lazy(() => import('./header-credits'));

interface HeaderProps {
  isDrawer: boolean;
  isMobile: boolean;
  sidebarOpen: boolean;
  onToggleSidebar: () => void;
}

export function Header({ isDrawer, isMobile, sidebarOpen, onToggleSidebar }: HeaderProps): ReactElement {
  const { t } = useTranslation();
  return (
    <header className="sticky top-0 z-20 flex h-16 items-center gap-3 border-b border-gray-200 bg-white/95 px-4 backdrop-blur md:px-6 dark:border-gray-800 dark:bg-gray-900/95">
      <button
        type="button"
        onClick={onToggleSidebar}
        aria-label={t('header.toggleSidebar')}
        aria-controls={SIDEBAR_ID}
        aria-expanded={sidebarOpen}
        data-testid="sidebar-toggle"
        className="inline-flex size-10 items-center justify-center rounded-lg border border-gray-200 text-gray-600 hover:bg-gray-100 dark:border-gray-700 dark:text-gray-300 dark:hover:bg-gray-800"
      >
        <Icon name={isDrawer && sidebarOpen ? 'close' : 'menu'} />
      </button>
      {isDrawer && (
        <Link to="/chat">
          <Logo compact={isMobile} />
        </Link>
      )}
      <div className="ml-auto flex items-center gap-2">
        <Suspense fallback={null}>
          <HeaderCredits />
        </Suspense>
        {isMobile ? (
          <OverflowMenu />
        ) : (
          <>
            <LanguageSwitcher />
            <ThemeToggle />
          </>
        )}
        <UserMenu />
      </div>
    </header>
  );
}

/** Small screens: language and theme move into one "more" menu. */
function OverflowMenu(): ReactElement {
  const { t } = useTranslation();
  const text = useText();
  const { theme, toggle } = useTheme();
  return (
    <DropdownMenu
      label={t('header.moreOptions')}
      testId="overflow-menu"
      buttonClassName="inline-flex size-10 items-center justify-center rounded-full border border-gray-200 text-gray-600 hover:bg-gray-100 dark:border-gray-700 dark:text-gray-300 dark:hover:bg-gray-800"
      button={<Icon name="more" strokeWidth={3} />}
      entries={[
        ...languageEntries(text),
        {
          key: 'theme',
          label: theme === 'dark' ? t('header.switchToLight') : t('header.switchToDark'),
          icon: <Icon name={theme === 'dark' ? 'sun' : 'moon'} />,
          onSelect: toggle,
          testId: 'theme-toggle',
        },
      ]}
    />
  );
}
