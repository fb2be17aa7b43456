import type { ReactElement } from 'react';
import { useText } from '../i18n/text';
import { Icon } from './icons';
import { useTheme } from './use-theme';

export function ThemeToggle(): ReactElement {
  const { t } = useText();
  const { theme, toggle } = useTheme();
  const label = t('header.darkMode');
  return (
    <button
      type="button"
      onClick={toggle}
      aria-label={label}
      title={label}
      aria-pressed={theme === 'dark'}
      data-testid="theme-toggle"
      className="inline-flex size-10 items-center justify-center rounded-full border border-gray-200 text-gray-600 hover:bg-gray-100 dark:border-gray-700 dark:text-gray-300 dark:hover:bg-gray-800"
    >
      <Icon name={theme === 'dark' ? 'sun' : 'moon'} />
    </button>
  );
}
