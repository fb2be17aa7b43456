import i18next, { type i18n as I18n, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, pickLanguage } from './languages';
import { bundled, lazyCatalogueBackend } from './resources';
import { STORAGE_KEYS, type KeyValueStorage } from '../lib/storage-keys';

export interface I18nSetupOptions {
  storage: KeyValueStorage;
  browserLanguages: readonly string[];
  /** The i18next instance to set up (the global one in the app; a stand-in in tests). */
  instance?: Pick<I18n, 'use' | 'init' | 'on'>;
  /** Catalogues available at once (English); the others load on first use. */
  resources?: Resource;
  /** Called with the language code whenever it changes (sets <html lang>). */
  onLanguage?: (code: string) => void;
}

/**
 * Sets up translations (English default and fallback). A failure is logged and raised as an
 * 'i18n error': the app cannot show text without it.
 */
export async function setupI18n(options: I18nSetupOptions): Promise<void> {
  const instance = options.instance ?? i18next;
  const language = pickLanguage(options.storage.getItem(STORAGE_KEYS.preferredLanguage), options.browserLanguages);
  try {
    await instance
      .use(initReactI18next)
      .use(lazyCatalogueBackend())
      .init({
        resources: options.resources ?? bundled,
        partialBundledLanguages: true,
        lng: language,
        fallbackLng: DEFAULT_LANGUAGE,
        supportedLngs: LANGUAGES.map((l) => l.code),
        interpolation: { escapeValue: false }, // React escapes
        returnNull: false,
      });
  } catch (cause) {
    console.error('Failed to initialise translations', cause);
    throw new Error('i18n error', { cause });
  }
  options.onLanguage?.(language);
  instance.on('languageChanged', (code: string) => {
    options.storage.setItem(STORAGE_KEYS.preferredLanguage, code);
    options.onLanguage?.(code);
  });
}
