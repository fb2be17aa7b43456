// English ships with the app (default and fallback); French, Estonian and Latvian are loaded when
// chosen, which keeps them out of the initial JavaScript.
import type { BackendModule, ReadCallback, ResourceKey } from 'i18next';
import { en, type Messages } from './locales/en';

type Loader = () => Promise<Messages>;

export const bundled = { en: { translation: en } };

export const loaders: Record<string, Loader> = {
  fr: () => import('./locales/fr').then((module) => module.fr),
  et: () => import('./locales/et').then((module) => module.et),
  lv: () => import('./locales/lv').then((module) => module.lv),
};

/** An i18next backend that imports a language's catalogue on first use. */
export function lazyCatalogueBackend(load: Record<string, Loader> = loaders): BackendModule {
  return {
    type: 'backend',
    init: () => undefined,
    read(language: string, namespace: string, callback: ReadCallback) {
      const loader = load[language];
      // Feature namespaces arrive with their page's chunk (i18n/feature.ts), never from here.
      if (!loader || namespace !== 'translation') {
        callback(null, {});
        return;
      }
      loader().then(
        (messages) => callback(null, messages as unknown as ResourceKey),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
      );
    },
  };
}
