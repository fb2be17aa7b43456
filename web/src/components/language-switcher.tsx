import type { ReactElement } from 'react';
import { DropdownMenu, type MenuEntry } from './dropdown-menu';
import { Icon } from './icons';
import { LANGUAGES } from '../i18n/languages';
import { useText, type Text } from '../i18n/text';

/** One menu entry per language, the current one checked; choosing one switches to it. */
export function languageEntries({
  language: shown,
  changeLanguage,
}: Pick<Text, 'language' | 'changeLanguage'>): MenuEntry[] {
  return LANGUAGES.map((language) => ({
    key: language.code,
    label: language.label,
    lang: language.code,
    checked: language.code === shown,
    testId: `language-${language.code}`,
    onSelect: () => changeLanguage(language.code),
  }));
}

/** Language names are shown in their own language (English, Français, Eesti, Latviešu). */
export function LanguageSwitcher(): ReactElement {
  const text = useText();
  const current = LANGUAGES.find((language) => language.code === text.language) ?? LANGUAGES[0];
  return (
    <DropdownMenu
      // The accessible name includes the visible language name (WCAG 2.5.3 label in name).
      label={`${text.t('header.language')}: ${current.label}`}
      testId="language-switcher"
      buttonClassName="inline-flex h-10 items-center gap-2 rounded-full border border-gray-200 px-3 text-sm text-gray-700 hover:bg-gray-100 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800"
      button={
        <>
          <Icon name="globe" />
          <span lang={current.code}>{current.label}</span>
        </>
      }
      entries={languageEntries(text)}
    />
  );
}
